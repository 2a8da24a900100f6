/**
 * A database as an older release left it: the first `count` migrations applied, then the rows the
 * test writes. Opening it with the current store then runs the migrations after those.
 */
import { Database } from 'bun:sqlite';
import type { SQL } from 'bun';
import { drizzle } from 'drizzle-orm/bun-sqlite';
import type { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { POSTGRES_MIGRATION_LIST } from '../../src/adapters/postgres/migrations/index.ts';
import { SQLITE_MIGRATIONS } from '../../src/adapters/sqlite/migrations/index.ts';

/** A SQLite file at `path` with the first `count` migrations applied and `rows` run (SQL statements). */
export function oldSqliteDatabase(path: string, count: number, rows: string[]): void {
  const old = new Database(path);
  const db = drizzle({ client: old });
  (db as unknown as { dialect: SQLiteSyncDialect }).dialect.migrate(SQLITE_MIGRATIONS.slice(0, count), (db as unknown as { session: never }).session, undefined);
  for (const statement of rows) old.run(statement);
  old.close();
}

/** A new PostgreSQL `schema` with the first `count` migrations applied (recorded as drizzle records them). */
export async function oldPostgresSchema(admin: SQL, schema: string, count: number): Promise<void> {
  await admin.unsafe(`CREATE SCHEMA "${schema}"`);
  await admin.begin(async (tx) => {
    await tx.unsafe(`SET LOCAL search_path TO "${schema}"`);
    await tx.unsafe('CREATE TABLE "__drizzle_migrations" (id serial PRIMARY KEY, hash text NOT NULL, created_at bigint)');
    for (const migration of POSTGRES_MIGRATION_LIST.slice(0, count)) {
      for (const statement of migration.sql) await tx.unsafe(statement.replaceAll('REFERENCES "public".', 'REFERENCES '));
      await tx`INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES (${migration.hash}, ${migration.folderMillis})`;
    }
  });
}
