/**
 * Seeds the benchmark's store: one developer (signed up through the real use case), one product and
 * N licenses already bound to a machine, signed like any issued key. Reused across runs when intact.
 */
import type { Database } from 'bun:sqlite';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hashing } from '../src/adapters/crypto/sha256-hashing.ts';
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.ts';
import { randomIds } from '../src/adapters/system/random-ids.ts';
import { systemClock } from '../src/adapters/system/system-clock.ts';
import { signUp } from '../src/app/developers/sign-up.ts';
import { createProduct } from '../src/app/products/create-product.ts';
import { composeDeps } from '../src/compose.ts';
import { settingsWith } from '../src/domain/settings.ts';
import { utf8 } from '../src/domain/base64url.ts';
import { assembleLicenseKey, signingInputFor } from '../src/domain/license-key.ts';

/** Where the seeded store, the samples and results.json live; BENCH_DIR moves it (e.g. a small seed beside the big one). */
export const BENCH_DIR = process.env.BENCH_DIR || join(import.meta.dir, '..', '.bench');
export const ISSUER = 'http://localhost:3000';
const CUSTOMERS = 1_000;
const BATCH = 50_000;

export interface Seeded {
  dbPath: string;
  /** base64, handed to the server as MASTER_KEY so it can open the seeded signing key. */
  masterKey: string;
  developerId: string;
  publishableKey: string;
  count: number;
  reused: boolean;
}

export interface Meta {
  masterKey: string;
  developerId: string;
  publishableKey: string;
  count: number;
}

export async function seed(options: { count: number; fresh: boolean; dir?: string }): Promise<Seeded> {
  const dir = options.dir ?? BENCH_DIR;
  const dbPath = join(dir, 'bench.db');
  const metaPath = join(dir, 'seed.json');
  mkdirSync(dir, { recursive: true });
  if (!options.fresh) {
    const meta = reusable(dbPath, metaPath, options.count);
    if (meta) return { dbPath, ...meta, reused: true };
  }
  for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`, metaPath]) rmSync(file, { force: true });
  const meta = await seedFresh(dbPath, options.count);
  writeFileSync(metaPath, JSON.stringify(meta, null, 2), { mode: 0o600 });
  return { dbPath, ...meta, reused: false };
}

function reusable(dbPath: string, metaPath: string, count: number): Meta | null {
  if (!existsSync(dbPath) || !existsSync(metaPath)) return null;
  const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as Meta;
  if (meta.count !== count) return null;
  const store = openSqliteStore(dbPath);
  try {
    // A seed from before activations (bindings only in licenses.machine_fingerprint) is not reused.
    const row = store.sqlite.query('SELECT count(*) AS n FROM activations').get() as { n: number };
    return row.n === count ? meta : null;
  } finally {
    store.sqlite.close();
  }
}

async function seedFresh(dbPath: string, count: number): Promise<Meta> {
  const masterKey = randomBytes(32);
  const store = openSqliteStore(dbPath);
  // Bulk load: durability is worthless here (a crash means reseeding), speed is not.
  store.sqlite.run('PRAGMA synchronous = OFF');
  store.sqlite.run('PRAGMA cache_size = -262144');
  const deps = composeDeps({ store, clock: systemClock, masterKey, settings: settingsWith({ issuer: ISSUER, apiBaseUrl: `${ISSUER}/v1` }) });

  const developer = await signUp(deps, { email: 'bench@example.com', name: 'Bench Developer' });
  const product = await createProduct(deps, developer.id, { name: 'Bench Pro', price: 1999, currency: 'usd', features: ['pro'] });
  const customerIds: string[] = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const customer = await deps.customers.findOrCreate({ id: randomIds.next('cus'), email: `customer${i}@example.com`, phone: null, phoneVerifiedAt: null, createdAt: systemClock.now() });
    customerIds.push(customer.id);
  }
  const signingKey = (await deps.signingKeys.active(developer.id, systemClock.now()))!;
  const sign = (input: string) => deps.signer.sign(signingKey.sealedPrivateKey, utf8.encode(input));
  insertLicenses(store.sqlite, count, (i) => licenseRow(i, { kid: signingKey.kid, developerId: developer.id, productId: product.id, customerId: customerIds[i % CUSTOMERS]! }, sign));
  // Each license bound to its machine, as the activations migration turns a binding into an activation.
  store.sqlite.run(
    `INSERT INTO activations (id, license_id, machine_fingerprint, name, created_at, last_seen_at)
     SELECT 'act_' || substr(id, 5), id, machine_fingerprint, NULL, bound_at, bound_at FROM licenses WHERE machine_fingerprint IS NOT NULL`,
  );
  store.sqlite.run('ANALYZE');
  await store.close();
  return { masterKey: masterKey.toString('base64'), developerId: developer.id, publishableKey: developer.publishableKey, count };
}

type Row = [string, string, string, string, number, string, number, string, string];

/** A license as issueLicense would make it (same claims, same signature), already bound to machine `i`. */
function licenseRow(i: number, owner: { kid: string; developerId: string; productId: string; customerId: string }, sign: (input: string) => Uint8Array): Row {
  const id = randomIds.next('lic');
  const issuedAt = systemClock.now();
  const input = signingInputFor(owner.kid, { iss: ISSUER, sub: owner.developerId, id, productId: owner.productId, features: ['pro'], issuedAt, expiresAt: null });
  const licenseKey = assembleLicenseKey(input, sign(input));
  return [id, owner.developerId, owner.productId, owner.customerId, issuedAt, fingerprintOf(i), issuedAt, licenseKey, sha256Hashing.hash(licenseKey)];
}

/** Straight bun:sqlite in big transactions: the repository's one-row inserts would take many minutes. */
function insertLicenses(sqlite: Database, count: number, rowOf: (i: number) => Row): void {
  const insert = sqlite.prepare<unknown, Row>(
    `INSERT INTO licenses (id, developer_id, product_id, customer_id, status, features, issued_at, expires_at, machine_fingerprint, bound_at, license_key, key_hash)
     VALUES (?, ?, ?, ?, 'active', '["pro"]', ?, NULL, ?, ?, ?, ?)`,
  );
  const insertBatch = sqlite.transaction((rows: Row[]) => {
    for (const row of rows) insert.run(...row);
  });
  const started = performance.now();
  for (let done = 0; done < count; ) {
    const end = Math.min(count, done + BATCH);
    const rows: Row[] = [];
    for (let i = done; i < end; i++) rows.push(rowOf(i));
    insertBatch(rows);
    done = end;
    progress(done, count, Math.round(done / ((performance.now() - started) / 1000)));
  }
  if (process.stdout.isTTY) process.stdout.write('\n');
}

/** One self-overwriting line on a terminal; a line per 250,000 in a log. */
function progress(done: number, count: number, rate: number): void {
  const tty = process.stdout.isTTY;
  if (!tty && done % 250_000 !== 0 && done !== count) return;
  const line = `  seeded ${done.toLocaleString('en')} / ${count.toLocaleString('en')} licenses (${rate.toLocaleString('en')}/s)`;
  process.stdout.write(tty ? `\r${line}` : `${line}\n`);
}

/** A fingerprint shaped like the client's: lower-case hex SHA-256 of host, user, os and arch. */
function fingerprintOf(i: number): string {
  return createHash('sha256').update(`bench-host-${i}\nuser\nlinux\namd64`).digest('hex');
}

/**
 * Random licenses of the store, one `<licenseKey> <fingerprint>` per line, for the load generator.
 * Random rowids rather than ORDER BY random(): no full scan of a million rows.
 */
export function writeSample(dbPath: string, size: number, file: string): number {
  const store = openSqliteStore(dbPath);
  try {
    const { max } = store.sqlite.query('SELECT max(rowid) AS max FROM licenses').get() as { max: number };
    // Bound licenses only: those of the seed (a bench run's checkouts add unbound ones of other sellers).
    const pick = store.sqlite.query('SELECT license_key AS k, machine_fingerprint AS f FROM licenses WHERE rowid = ? AND machine_fingerprint IS NOT NULL');
    const lines = new Map<number, string>();
    for (let tries = 0; lines.size < size && tries < size * 4; tries++) {
      const rowid = 1 + Math.floor(Math.random() * max);
      const row = pick.get(rowid) as { k: string; f: string } | null;
      if (row && !lines.has(rowid)) lines.set(rowid, `${row.k} ${row.f}`);
    }
    writeFileSync(file, `${[...lines.values()].join('\n')}\n`);
    return lines.size;
  } finally {
    store.sqlite.close();
  }
}

/**
 * Reads the store file once so the load meets the OS page cache, not the disk: these VMs page out
 * file pages left idle for ~30 s (DAMON reclaim), which would make the first scenario pay for I/O.
 */
export function warmPageCache(path: string): number {
  const fd = openSync(path, 'r');
  const buffer = Buffer.allocUnsafe(1 << 20);
  let total = 0;
  try {
    for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0; ) total += n;
  } finally {
    closeSync(fd);
  }
  return total;
}
