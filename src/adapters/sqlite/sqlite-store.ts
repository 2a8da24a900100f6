import { Database } from 'bun:sqlite';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite';
import { migrate } from 'drizzle-orm/bun-sqlite/migrator';
import type { Store } from '../../ports/deps.ts';
import { SqliteCustomerRepository } from './sqlite-customer-repository.ts';
import { SqliteDeveloperRepository } from './sqlite-developer-repository.ts';
import { SqliteLicenseRepository } from './sqlite-license-repository.ts';
import { SqliteProductRepository } from './sqlite-product-repository.ts';
import { SqliteSigningKeyRepository } from './sqlite-signing-key-repository.ts';
import * as schema from './schema.ts';

export type SqliteDb = BunSQLiteDatabase<typeof schema>;

export const SQLITE_MIGRATIONS = join(import.meta.dir, 'migrations');

/** Opens (creating if needed) and migrates a SQLite store; `:memory:` for a throw-away one. */
export function openSqliteStore(path: string): Store & { db: SqliteDb; sqlite: Database } {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.run('PRAGMA journal_mode = WAL');
  // NORMAL in WAL mode loses nothing on a process crash (kill -9); only a power cut may drop the last commits.
  sqlite.run('PRAGMA synchronous = NORMAL');
  sqlite.run('PRAGMA foreign_keys = ON');
  sqlite.run('PRAGMA busy_timeout = 5000');
  sqlite.run('PRAGMA journal_size_limit = 67108864');
  const db = drizzle({ client: sqlite, schema });
  migrate(db, { migrationsFolder: SQLITE_MIGRATIONS });
  const ping = sqlite.query('SELECT 1');
  return {
    db,
    sqlite,
    developers: new SqliteDeveloperRepository(db),
    signingKeys: new SqliteSigningKeyRepository(db),
    products: new SqliteProductRepository(db),
    customers: new SqliteCustomerRepository(db),
    licenses: new SqliteLicenseRepository(db),
    ping: async () => {
      try {
        ping.get();
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)');
      sqlite.close();
    },
  };
}

/** SQLite's unique-constraint failure on `table.column`, whatever the driver wraps it in. */
export function isUniqueViolation(error: unknown, column: string): boolean {
  for (let e = error as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (String(e.message ?? '').includes(`UNIQUE constraint failed: ${column}`)) return true;
  }
  return false;
}
