import type { SQL } from 'bun';
import { join } from 'node:path';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import { POSTGRES_MIGRATION_LIST } from './migrations/index.ts';
import { assertSchemaKnown } from '../migrations/schema-version.ts';

export const POSTGRES_MIGRATIONS = join(import.meta.dir, 'migrations');

/** Lower-case identifiers only: they go into search_path and DDL unquoted-safe, never from user input. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid PostgreSQL schema name "${schema}": use [a-z_][a-z0-9_]*.`);
}

/**
 * The stamps (`created_at`) of the migrations recorded in `schema`, and of those a newer release
 * has announced it is about to apply (UPGRADES_TABLE); none before the first start.
 */
export async function appliedPostgresMigrations(client: SQL, schema: string): Promise<number[]> {
  assertSchemaName(schema);
  const stamps: number[] = [];
  for (const table of ['__drizzle_migrations', UPGRADES_TABLE]) {
    const [found] = await client`SELECT to_regclass(${`"${schema}"."${table}"`}) AS t`;
    if (!found?.t) continue;
    const rows = await client.unsafe(`SELECT created_at FROM "${schema}"."${table}"`);
    stamps.push(...[...rows].map((row: { created_at: unknown }) => Number(row.created_at)));
  }
  return stamps;
}

/**
 * Where a release about to migrate a schema in use announces the migrations it will apply, then
 * waits: the running instances of older releases find them there (appliedPostgresMigrations) and
 * stop before any is applied. Made only when needed; emptied once they are applied.
 */
export const UPGRADES_TABLE = '__licensing_upgrades';

export interface MigrateOptions {
  /** A folder instead of the embedded list (tests of broken migrations and of a newer release). */
  migrationsFolder?: string;
  /**
   * On a schema already in use with migrations to apply: announce them, then wait this long before
   * applying any, so every running older instance has seen them and stopped (0: no wait).
   */
  drainMs?: number;
}

/**
 * Brings `schema` (created if missing) up to the latest committed migration, in one transaction
 * under a transaction-level advisory lock keyed by the schema: instances starting at once queue on
 * the lock, and each one after the first finds the work done. PostgreSQL's DDL is transactional,
 * so a failed migration leaves nothing half-applied. A schema that records a migration this code
 * does not know (a newer release migrated it) is refused: SchemaTooNewError.
 */
export async function migratePostgres(client: SQL, schema: string, options: MigrateOptions = {}): Promise<void> {
  assertSchemaName(schema);
  // The embedded list by default (a compiled binary has no folder).
  const migrations = options.migrationsFolder ? readMigrationFiles({ migrationsFolder: options.migrationsFolder }) : POSTGRES_MIGRATION_LIST;
  if (options.drainMs && (await announcePending(client, schema, migrations))) await Bun.sleep(options.drainMs);
  await client.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext(${`licensing-migrations:${schema}`}))`;
    await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await tx.unsafe(`SET LOCAL search_path TO "${schema}"`);
    await tx.unsafe(
      'CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id serial PRIMARY KEY, hash text NOT NULL, created_at bigint)',
    );
    const applied = (await tx`SELECT created_at FROM "__drizzle_migrations"`).map((row: { created_at: unknown }) => Number(row.created_at));
    // A newer release's migrations here (applied or announced): this one must not run on that schema (schema-version.ts).
    assertSchemaKnown(await appliedPostgresMigrations(tx as unknown as SQL, schema), migrations);
    const appliedUpTo = applied.length > 0 ? Math.max(...applied) : -1;
    for (const migration of migrations) {
      if (migration.folderMillis <= appliedUpTo) continue;
      // drizzle-kit writes foreign keys as REFERENCES "public"."t": the tables live in `schema` instead.
      for (const statement of migration.sql) await tx.unsafe(statement.replaceAll('REFERENCES "public".', 'REFERENCES '));
      await tx`INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES (${migration.hash}, ${migration.folderMillis})`;
    }
    const [announced] = await tx`SELECT to_regclass(${`"${schema}"."${UPGRADES_TABLE}"`}) AS t`;
    if (announced?.t) await tx.unsafe(`DELETE FROM "${UPGRADES_TABLE}" WHERE created_at IN (SELECT created_at FROM "__drizzle_migrations")`);
  });
}

/**
 * Records the migrations still to apply on a schema that has some applied already (older instances
 * may be running on it); true when any are pending. A new schema has nobody to warn.
 */
async function announcePending(client: SQL, schema: string, migrations: readonly MigrationMeta[]): Promise<boolean> {
  return client.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext(${`licensing-migrations:${schema}`}))`;
    const [found] = await tx`SELECT to_regclass(${`"${schema}"."__drizzle_migrations"`}) AS t`;
    if (!found?.t) return false;
    const applied = new Set((await tx.unsafe(`SELECT created_at FROM "${schema}"."__drizzle_migrations"`)).map((row: { created_at: unknown }) => Number(row.created_at)));
    if (applied.size === 0) return false;
    assertSchemaKnown(await appliedPostgresMigrations(tx as unknown as SQL, schema), migrations);
    const pending = migrations.filter((m) => !applied.has(m.folderMillis)).map((m) => m.folderMillis);
    if (pending.length === 0) return false;
    await tx.unsafe(`CREATE TABLE IF NOT EXISTS "${schema}"."${UPGRADES_TABLE}" (created_at bigint PRIMARY KEY, announced_at bigint NOT NULL)`);
    for (const stamp of pending) {
      await tx.unsafe(`INSERT INTO "${schema}"."${UPGRADES_TABLE}" (created_at, announced_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [stamp, Date.now()]);
    }
    return true;
  });
}
