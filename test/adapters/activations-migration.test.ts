import { SQL } from 'bun';
import { afterAll, afterEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hashing } from '../../src/adapters/crypto/sha256-hashing.ts';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { validateLicense } from '../../src/app/licenses/validate-license.ts';
import type { Store } from '../../src/ports/deps.ts';
import { unique } from '../contracts/builders.ts';
import { oldPostgresSchema, oldSqliteDatabase } from '../support/old-schema.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';
import { depsFor } from '../support/deps.ts';

/**
 * A database at the schema before activations, holding a bound and an unbound license, is brought
 * up to date: each binding becomes one activation and validates exactly as before.
 */
const T = Date.UTC(2025, 5, 1);
const BOUND_AT = T + 3_600_000;
const ids = { dev: 'dev_m1', prod: 'prod_m1', cus: 'cus_m1', bound: 'lic_boundOne', free: 'lic_freeOne' };
const keys = { bound: 'old.bound.key', free: 'old.free.key' };

/** The rows as the old schema held them; `hash` is the service's digest of a key. */
function oldRows(hash: (key: string) => string, q: (name: string) => string): string[] {
  const license = (id: string, key: string, fp: string | null, boundAt: number | null) =>
    `INSERT INTO ${q('licenses')} (id, developer_id, product_id, customer_id, status, features, issued_at, expires_at, machine_fingerprint, bound_at, license_key, key_hash) VALUES ('${id}', '${ids.dev}', '${ids.prod}', '${ids.cus}', 'active', '["pro"]', ${T}, NULL, ${fp ? `'${fp}'` : 'NULL'}, ${boundAt ?? 'NULL'}, '${key}', '${hash(key)}')`;
  return [
    `INSERT INTO ${q('developers')} (id, email, name, created_at) VALUES ('${ids.dev}', 'old@example.com', 'Old', ${T})`,
    `INSERT INTO ${q('products')} (id, developer_id, name, price, currency, features, license_days, active, created_at, updated_at) VALUES ('${ids.prod}', '${ids.dev}', 'Pro', 100, 'usd', '["pro"]', NULL, true, ${T}, ${T})`,
    `INSERT INTO ${q('customers')} (id, email, phone, created_at) VALUES ('${ids.cus}', 'buyer-old@example.com', NULL, ${T})`,
    license(ids.bound, keys.bound, 'machine-old', BOUND_AT),
    license(ids.free, keys.free, null, null),
  ];
}

async function expectBindingsKept(store: Store) {
  const deps = depsFor(store);
  const validate = (licenseKey: string, machineFingerprint: string) => validateLicense(deps, ids.dev, { licenseKey, machineFingerprint, clientAddress: '127.0.0.1' });

  expect(await store.licenses.listActivations(ids.bound)).toEqual([
    { id: 'act_boundOne', licenseId: ids.bound, machineFingerprint: 'machine-old', name: null, createdAt: BOUND_AT, lastSeenAt: BOUND_AT },
  ]);
  expect(await store.licenses.listActivations(ids.free)).toEqual([]);
  expect((await store.licenses.findById(ids.bound))).toMatchObject({ machineFingerprint: 'machine-old', maxMachines: 1 });
  expect((await store.products.findById(ids.prod))).toMatchObject({ maxMachines: 1, deactivationsPer30Days: 3 });
  expect((await validate(keys.bound, 'machine-old')).valid).toBe(true);
  expect(await validate(keys.bound, 'machine-new')).toEqual({ valid: false, reason: 'machine_mismatch' });
  expect((await validate(keys.free, 'machine-new')).valid).toBe(true);
  expect(await validate(keys.free, 'machine-other')).toEqual({ valid: false, reason: 'machine_mismatch' });
}

// The migrations before activations: 0000–0003 on SQLite, 0000–0001 on PostgreSQL.
const BEFORE_SQLITE = 4;
const BEFORE_POSTGRES = 2;

describe('the activations migration keeps every binding', () => {
  const dirs: string[] = [];
  const stores: Store[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  test('SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'licensing-migrate-'));
    dirs.push(dir);
    const path = join(dir, 'old.db');
    oldSqliteDatabase(path, BEFORE_SQLITE, oldRows((key) => sha256Hashing.hash(key), (name) => `\`${name}\``).map((statement) => statement.replace(', true,', ', 1,')));

    const store = openSqliteStore(path);
    stores.push(store);

    await expectBindingsKept(store);
  });

  describe('PostgreSQL', () => {
    const admin = new SQL({ url: TEST_POSTGRES_URL, max: 2 });
    const schema = `t_${unique()}`;
    afterAll(async () => {
      await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.close();
    });

    test('PostgreSQL', async () => {
      await oldPostgresSchema(admin, schema, BEFORE_POSTGRES);
        for (const statement of oldRows((key) => sha256Hashing.hash(key), (name) => `"${schema}"."${name}"`)) await admin.unsafe(statement);

      const store = await openPostgresStore(TEST_POSTGRES_URL, { schema });
      stores.push(store);

      await expectBindingsKept(store);
    });
  });
});
