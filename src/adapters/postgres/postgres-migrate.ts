import type { SQL } from 'bun';
import { join } from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { POSTGRES_MIGRATION_LIST } from './migrations/index.ts';
import { assertSchemaKnown } from '../migrations/schema-version.ts';

export const POSTGRES_MIGRATIONS = join(import.meta.dir, 'migrations');

/** Lower-case identifiers only: they go into search_path and DDL unquoted-safe, never from user input. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid PostgreSQL schema name "${schema}": use [a-z_][a-z0-9_]*.`);
}

/** The stamps (`created_at`) of the migrations recorded in `schema`; none before the first start. */
export async function appliedPostgresMigrations(client: SQL, schema: string): Promise<number[]> {
  assertSchemaName(schema);
  const [table] = await client`SELECT to_regclass(${`"${schema}"."__drizzle_migrations"`}) AS t`;
  if (!table?.t) return [];
  const rows = await client.unsafe(`SELECT created_at FROM "${schema}"."__drizzle_migrations"`);
  return [...rows].map((row: { created_at: unknown }) => Number(row.created_at));
}

/**
 * Brings `schema` (created if missing) up to the latest committed migration, in one transaction
 * under a transaction-level advisory lock keyed by the schema: instances starting at once queue on
 * the lock, and each one after the first finds the work done. PostgreSQL's DDL is transactional,
 * so a failed migration leaves nothing half-applied. A schema that records a migration this code
 * does not know (a newer release migrated it) is refused: SchemaTooNewError.
 */
export async function migratePostgres(client: SQL, schema: string, migrationsFolder?: string): Promise<void> {
  assertSchemaName(schema);
  // The embedded list by default (a compiled binary has no folder); a folder for tests of broken migrations.
  const migrations = migrationsFolder ? readMigrationFiles({ migrationsFolder }) : POSTGRES_MIGRATION_LIST;
  await client.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext(${`licensing-migrations:${schema}`}))`;
    await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await tx.unsafe(`SET LOCAL search_path TO "${schema}"`);
    await tx.unsafe(
      'CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id serial PRIMARY KEY, hash text NOT NULL, created_at bigint)',
    );
    const applied = (await tx`SELECT created_at FROM "__drizzle_migrations"`).map((row: { created_at: unknown }) => Number(row.created_at));
    // A newer release's migrations here: this one must not run on that schema (schema-version.ts).
    assertSchemaKnown(applied, migrations);
    const appliedUpTo = applied.length > 0 ? Math.max(...applied) : -1;
    for (const migration of migrations) {
      if (migration.folderMillis <= appliedUpTo) continue;
      // drizzle-kit writes foreign keys as REFERENCES "public"."t": the tables live in `schema` instead.
      for (const statement of migration.sql) await tx.unsafe(statement.replaceAll('REFERENCES "public".', 'REFERENCES '));
      await tx`INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES (${migration.hash}, ${migration.folderMillis})`;
    }
  });
}
