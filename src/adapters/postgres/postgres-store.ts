import { SQL } from 'bun';
import { drizzle, type BunSQLDatabase } from 'drizzle-orm/bun-sql';
import type { Store } from '../../ports/deps.ts';
import { pingWith, sharedRepositories } from '../store/shared-repositories.ts';
import { postgresSqlStore } from '../store/sql-store.ts';
import { assertSchemaName, migratePostgres } from './postgres-migrate.ts';
import { gated, PoolGate, type PoolUsage } from './pool-gate.ts';
import { LockEpisode } from './lock-episode.ts';
import { PostgresCheckoutRepository } from '../store/checkouts/postgres-checkout-writes.ts';
import { PostgresCustomerDirectory } from '../store/customers/postgres-customer-directory.ts';
import { CachedDeveloperRepository } from '../store/developers/cached-developer-repository.ts';
import { PostgresDeveloperRepository } from '../store/developers/postgres-developer-repository.ts';
import { PostgresLicenseRepository } from '../store/licenses/postgres-license-writes.ts';
import { PostgresOrderRepository } from '../store/orders/postgres-order-writes.ts';
import { PostgresLeaseRepository } from '../store/leases/postgres-lease-writes.ts';
import { PostgresTrialRepository } from '../store/trials/postgres-trial-repository.ts';
import { PostgresWebhookEndpointRepository } from '../store/webhooks/postgres-endpoint-writes.ts';
import { PostgresOutboxRepository } from '../store/webhooks/postgres-outbox-repository.ts';
import * as schema from '../store/tables.ts';
import { DrizzleMachineFileRepository } from '../store/machine-files/machine-file-queries.ts';
import { postgresRecordMachineFile } from '../store/machine-files/postgres-machine-file-writes.ts';

export type PostgresDb = BunSQLDatabase<typeof schema>;

export interface PostgresOptions {
  /**
   * Before migrating a schema in use: how long to wait, once the pending migrations are announced,
   * for running instances of the older release to stop (postgres-migrate.ts; default 0).
   */
  upgradeDrainMs?: number;
  /** The schema the tables live in, created and migrated if needed (default `public`). */
  schema?: string;
  /** Connections in the pool (default 8). */
  max?: number;
  /** statement_timeout of every connection, in ms (default 5 s): a stuck query ends in an error, not a pile-up. */
  statementTimeoutMs?: number;
  /** lock_timeout of every connection, in ms (default 2 s): a row held FOR UPDATE elsewhere stalls no one longer. */
  lockTimeoutMs?: number;
  /** How long opening a connection may take, in ms (default 5 s). */
  connectTimeoutMs?: number;
  /** How long a statement may wait for its turn on the pool, in ms (default 2 s). */
  poolWaitMs?: number;
}

/** Statements and transactions in flight per pooled connection before the next one waits its turn. */
export const IN_FLIGHT_PER_CONNECTION = 4;

export const DEFAULT_POOL_SIZE = 8;

export type PostgresStore = Store & {
  db: PostgresDb;
  sql: SQL;
  schema: string;
  /** The pool gate's slots in use and callers waiting for one, now (Bun's SQL reports no counts of its own). */
  poolUsage: () => PoolUsage;
};

/**
 * Opens a pool on `url`, with every connection's search_path set to the schema, and migrates that
 * schema before returning. No cache in front of it: other instances write to the same database.
 */
/** How long an instance may keep using an API-key record it read (a revoked key stops working within it). */
export const API_KEY_TTL_MS = 5_000;

export async function openPostgresStore(url: string, options: PostgresOptions = {}): Promise<PostgresStore> {
  const schemaName = options.schema ?? 'public';
  const lockTimeoutMs = options.lockTimeoutMs ?? 2_000;
  assertSchemaName(schemaName);
  const connection = {
    search_path: schemaName,
    statement_timeout: options.statementTimeoutMs ?? 5_000,
    lock_timeout: lockTimeoutMs,
  };
  const connectionTimeout = Math.ceil((options.connectTimeoutMs ?? 5_000) / 1000);
  // Migrations may rewrite big tables and wait for other instances' locks: their connection has no deadlines.
  const migrator = new SQL({ url, max: 1, connectionTimeout, connection: { search_path: schemaName } });
  try {
    await migratePostgres(migrator, schemaName, { drainMs: options.upgradeDrainMs ?? 0 });
  } finally {
    await migrator.close();
  }
  const max = options.max ?? DEFAULT_POOL_SIZE;
  const client = new SQL({ url, max, connectionTimeout, connection });
  // Bun's SQL pipelines several statements per connection, so the gate admits a few per connection;
  // behind a lock, a read queued behind stuck statements answers after one lock wait, not several.
  const gate = new PoolGate(max * IN_FLIGHT_PER_CONNECTION, options.poolWaitMs ?? 2_000, new LockEpisode(lockTimeoutMs));
  const pool = gated(client, gate);
  const db = drizzle({ client: pool, schema });
  return {
    db,
    sql: pool,
    schema: schemaName,
    poolUsage: () => gate.usage(),
    // Other instances share the database: API keys are served from memory for a few seconds at most.
    ...sharedRepositories(postgresSqlStore(db)),
    developers: new CachedDeveloperRepository(new PostgresDeveloperRepository(db), { capacity: 10_000, ttlMs: API_KEY_TTL_MS }),
    licenses: new PostgresLicenseRepository(db),
    checkouts: new PostgresCheckoutRepository(db),
    webhookEndpoints: new PostgresWebhookEndpointRepository(db),
    outbox: new PostgresOutboxRepository(db),
    trials: new PostgresTrialRepository(db),
    leases: new PostgresLeaseRepository(db),
    orders: new PostgresOrderRepository(db),
    customerDirectory: new PostgresCustomerDirectory(db),
    machineFiles: new DrizzleMachineFileRepository(postgresSqlStore(db), postgresRecordMachineFile(db)),
    ping: pingWith(() => client`SELECT 1`),
    close: async () => {
      await client.close();
    },
  };
}

/** PostgreSQL's unique violation (SQLSTATE 23505) of the named constraint or unique index, however wrapped. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let e = error as { errno?: unknown; constraint?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.errno === '23505' && e.constraint === constraint) return true;
  }
  return false;
}
