import { Database } from 'bun:sqlite';
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite';
import type { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { SQLITE_MIGRATIONS } from './migrations/index.ts';
import type { Store } from '../../ports/deps.ts';
import { pingWith, sharedRepositories } from '../store/shared-repositories.ts';
import { sqliteSqlStore } from '../store/sql-store.ts';
import { CachedDeveloperRepository } from '../store/developers/cached-developer-repository.ts';
import { CachedLicenseRepository } from '../store/licenses/cached-license-repository.ts';
import { SqliteCheckoutRepository } from '../store/checkouts/sqlite-checkout-writes.ts';
import { SqliteCustomerDirectory } from '../store/customers/sqlite-customer-directory.ts';
import { SqliteDeveloperRepository } from '../store/developers/sqlite-developer-repository.ts';
import { SqliteLicenseRepository } from '../store/licenses/sqlite-license-writes.ts';
import { SqliteOrderRepository } from '../store/orders/sqlite-order-writes.ts';
import { SqliteLeaseRepository } from '../store/leases/sqlite-lease-writes.ts';
import { SqliteTrialRepository } from '../store/trials/sqlite-trial-repository.ts';
import { SqliteWebhookEndpointRepository } from '../store/webhooks/sqlite-endpoint-writes.ts';
import { SqliteOutboxRepository } from '../store/webhooks/sqlite-outbox-repository.ts';
import * as schema from './schema.ts';
import { preparePrivateDatabase, tightenSidecars } from './private-files.ts';
import { assertSchemaKnown } from '../migrations/schema-version.ts';
import { DrizzleMachineFileRepository } from '../store/machine-files/machine-file-queries.ts';
import { sqliteRecordMachineFile } from '../store/machine-files/sqlite-machine-file-writes.ts';

export type SqliteDb = BunSQLiteDatabase<typeof schema>;


export interface SqliteOptions {
  /**
   * The service's own store: the file is held in exclusive locking mode (no other process can open
   * it, and no file locks are taken per query), SQLite keeps a 16 MiB page cache (docs/operating.md, "Memory"), and the hot reads
   * are cached in memory, write-through, which only one owning process makes safe.
   */
  owner?: boolean;
  /** License states kept in memory by the owner (0 = none). */
  cacheEntries?: number;
  /** How long a statement waits for a lock held elsewhere, in ms (default 1 s); bun:sqlite blocks the process while it waits. */
  busyTimeoutMs?: number;
}

export const DEFAULT_CACHE_ENTRIES = 100_000;

/**
 * The database as drizzle sees it, but compiling each distinct statement once: drizzle prepares
 * every query it runs afresh (`prepare`), while `query` keeps the compiled statement for the same
 * SQL text (drizzle's SQL carries its values as parameters, so the texts are few). Every call runs
 * a statement to completion synchronously, so sharing one compiled statement is safe.
 */
function compilingOnce(sqlite: Database): Database {
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === 'prepare') return (sql: string) => target.query(sql);
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Opens (creating if needed) and migrates a SQLite store; `:memory:` for a throw-away one. */
export function openSqliteStore(path: string, options: SqliteOptions = {}): Store & { db: SqliteDb; sqlite: Database } {
  if (path !== ':memory:') preparePrivateDatabase(path);
  const sqlite = new Database(path, { create: true, strict: true });
  if (options.owner) {
    // Before WAL is entered: then the WAL index lives in heap memory and the lock is held until close.
    sqlite.run('PRAGMA locking_mode = EXCLUSIVE');
    sqlite.run('PRAGMA cache_size = -16384');
  }
  sqlite.run('PRAGMA journal_mode = WAL');
  // NORMAL in WAL mode loses nothing on a process crash (kill -9); only a power cut may drop the last commits.
  sqlite.run('PRAGMA synchronous = NORMAL');
  sqlite.run('PRAGMA foreign_keys = ON');
  sqlite.run(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 1_000))}`);
  sqlite.run('PRAGMA journal_size_limit = 67108864');
  if (path !== ':memory:') tightenSidecars(path);
  const db = drizzle({ client: compilingOnce(sqlite), schema });
  try {
    assertSchemaKnown(appliedSqliteMigrations(sqlite), SQLITE_MIGRATIONS);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  // drizzle's own migrator, fed the migrations embedded in the bundle rather than read from a folder.
  (db as unknown as { dialect: SQLiteSyncDialect }).dialect.migrate(SQLITE_MIGRATIONS, (db as unknown as { session: never }).session, undefined);
  const ping = sqlite.query('SELECT 1');
  const cacheEntries = options.owner ? (options.cacheEntries ?? DEFAULT_CACHE_ENTRIES) : 0;
  const developers = new SqliteDeveloperRepository(db);
  const licenses = new SqliteLicenseRepository(db);
  return {
    db,
    sqlite,
    ...sharedRepositories(sqliteSqlStore(db)),
    developers: options.owner ? new CachedDeveloperRepository(developers, { capacity: 10_000, ttlMs: Infinity }) : developers,
    licenses: cacheEntries > 0 ? new CachedLicenseRepository(licenses, cacheEntries) : licenses,
    checkouts: new SqliteCheckoutRepository(db),
    webhookEndpoints: new SqliteWebhookEndpointRepository(db),
    outbox: new SqliteOutboxRepository(db),
    trials: new SqliteTrialRepository(db),
    leases: new SqliteLeaseRepository(db),
    orders: new SqliteOrderRepository(db),
    customerDirectory: new SqliteCustomerDirectory(db),
    machineFiles: new DrizzleMachineFileRepository(sqliteSqlStore(db), sqliteRecordMachineFile(db)),
    ping: pingWith(() => ping.get()),
    close: async () => {
      // A full disk fails the checkpoint: the WAL then stays beside the file and is replayed at the next open.
      try {
        sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)');
      } finally {
        sqlite.close();
      }
    },
  };
}

/** The stamps (`created_at`) of the migrations recorded in the file; none in a new one. */
export function appliedSqliteMigrations(sqlite: Database): number[] {
  const table = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!table) return [];
  return sqlite.query<{ created_at: number }, []>('SELECT created_at FROM __drizzle_migrations').all().map((row) => Number(row.created_at));
}

/** SQLite's unique-constraint failure on `table.column`, whatever the driver wraps it in. */
export function isUniqueViolation(error: unknown, column: string): boolean {
  for (let e = error as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (String(e.message ?? '').includes(`UNIQUE constraint failed: ${column}`)) return true;
  }
  return false;
}
