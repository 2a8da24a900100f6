import { Database } from 'bun:sqlite';
import { SQL } from 'bun';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';
import { randomHex } from './client.ts';

/** Read from the store itself once the service has stopped for good. */
export interface StoreFacts {
  sessionsWithTwoLicenses: unknown[];
  purchasesWithTwoLicenses: unknown[];
  /** Sessions whose license_id is not the one license issued for them. */
  sessionsNotOwningTheirLicense: unknown[];
  /** Paid purchases without a payment, without a license, or whose license is not theirs. */
  paidPurchasesNotSettled: unknown[];
  /** One processor payment recorded for two orders (two charges would show as two payments). */
  paymentsOnTwoOrders: unknown[];
  /** License id → the fingerprint it is bound to. */
  bindings: Map<string, string | null>;
}

export interface CrashStore {
  name: 'sqlite' | 'postgres';
  /** What the service is started with, the same before and after the crash. */
  env: Record<string, string>;
  facts(): Promise<StoreFacts>;
  /** Any read of the store, once the service has stopped. */
  rows(query: string): Promise<Record<string, unknown>[]>;
  /** SQLite: PRAGMA integrity_check and foreign_key_check of the file after the final stop (['ok'] when sound). */
  integrity?(): string[];
  /** SQLite: the same checks on a copy of the files exactly as the kill left them (the copy is recovered, not the original). */
  integrityOfCrashedFiles?(): string[];
  dispose(): Promise<void>;
}

const QUERIES = {
  sessionsWithTwoLicenses: 'SELECT checkout_session_id, COUNT(*) AS n FROM licenses WHERE checkout_session_id IS NOT NULL GROUP BY checkout_session_id HAVING COUNT(*) > 1',
  purchasesWithTwoLicenses: 'SELECT purchase_id, COUNT(*) AS n FROM licenses WHERE purchase_id IS NOT NULL GROUP BY purchase_id HAVING COUNT(*) > 1',
  sessionsNotOwningTheirLicense:
    'SELECT s.id FROM checkout_sessions s WHERE s.license_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM licenses l WHERE l.id = s.license_id AND l.checkout_session_id = s.id)',
  paidPurchasesNotSettled:
    "SELECT p.id FROM purchases p WHERE p.status = 'paid' AND (p.payment_id IS NULL OR NOT EXISTS (SELECT 1 FROM licenses l WHERE l.id = p.license_id AND l.purchase_id = p.id))",
  paymentsOnTwoOrders:
    'SELECT payment_id, COUNT(*) AS n FROM (SELECT payment_id FROM purchases WHERE payment_id IS NOT NULL UNION ALL SELECT payment_id FROM checkout_sessions WHERE payment_id IS NOT NULL) AS payments GROUP BY payment_id HAVING COUNT(*) > 1',
  // Since activations, a license's machine is its oldest activation's (one at most with maxMachines 1).
  bindings: 'SELECT l.id, (SELECT a.machine_fingerprint FROM activations a WHERE a.license_id = l.id ORDER BY a.created_at, a.id LIMIT 1) AS machine_fingerprint FROM licenses l',
} as const;

const MASTER_KEY = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');
/** Fixed across restarts: license keys name it as their issuer. */
const PUBLIC_BASE_URL = 'http://127.0.0.1:3999';

async function factsFrom(run: (query: string) => Promise<Record<string, unknown>[]>): Promise<StoreFacts> {
  const { bindings, ...checks } = QUERIES;
  const entries = await Promise.all(Object.entries(checks).map(async ([name, query]) => [name, await run(query)] as const));
  const bound = (await run(bindings)).map((r) => [r.id as string, (r.machine_fingerprint as string | null) ?? null] as const);
  return { ...(Object.fromEntries(entries) as Omit<StoreFacts, 'bindings'>), bindings: new Map(bound) };
}

/** A SQLite file in its own folder; the service holds it exclusively, so it is read only once stopped. */
export function sqliteCrashStore(): CrashStore {
  const dir = mkdtempSync(join(tmpdir(), 'licensing-crash-'));
  const path = join(dir, 'store.db');
  const integrityOf = (file: string, options: { readonly?: boolean } = {}) => {
    const db = new Database(file, options);
    try {
      return [...db.query('PRAGMA integrity_check').values().map((row) => String(row[0])), ...db.query('PRAGMA foreign_key_check').values().map((row) => `foreign key: ${row.join(' ')}`)];
    } finally {
      db.close();
    }
  };
  return {
    name: 'sqlite',
    env: { DATABASE_URL: `sqlite:${path}`, MASTER_KEY: MASTER_KEY(), PUBLIC_BASE_URL },
    integrity: () => integrityOf(path, { readonly: true }),
    integrityOfCrashedFiles() {
      const copy = join(dir, 'crashed.db');
      for (const suffix of ['', '-wal']) if (existsSync(path + suffix)) copyFileSync(path + suffix, copy + suffix);
      return integrityOf(copy);
    },
    async facts() {
      return factsFrom(this.rows);
    },
    async rows(query) {
      const db = new Database(path, { readonly: true });
      try {
        return db.query(query).all() as Record<string, unknown>[];
      } finally {
        db.close();
      }
    },
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A fresh schema `t_<random>` of the test database, dropped by `dispose`. */
export function postgresCrashStore(): CrashStore {
  const schema = `t_crash_${randomHex(6)}`;
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set('schema', schema);
  const connect = () => new SQL({ url: TEST_POSTGRES_URL, max: 2, connection: { search_path: schema } });
  return {
    name: 'postgres',
    env: { DATABASE_URL: url.toString(), MASTER_KEY: MASTER_KEY(), PUBLIC_BASE_URL },
    async facts() {
      return factsFrom(this.rows);
    },
    async rows(query) {
      const sql = connect();
      try {
        return (await sql.unsafe(query)) as Record<string, unknown>[];
      } finally {
        await sql.close();
      }
    },
    async dispose() {
      const sql = connect();
      try {
        await sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await sql.close();
      }
    },
  };
}
