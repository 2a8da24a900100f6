import { describe, expect, test } from 'bun:test';
import type { Database } from 'bun:sqlite';
import type { PostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import { POSTGRES_MIGRATION_LIST } from '../../src/adapters/postgres/migrations/index.ts';
import { SQLITE_MIGRATIONS } from '../../src/adapters/sqlite/migrations/index.ts';
import { freshStorePerTest, postgresStores, sqliteStores } from '../contracts/stores.ts';

/** The rule since the console's rollups moved into the repositories: SQL holds the schema and its constraints, no logic. */

/** The console_rollups_in_code migration's statements: what a store of the release that kept its rollups by triggers runs. */
const dropsOf = (migrations: { sql: string[] }[], trigger: string) => migrations.find((m) => m.sql.some((s) => s.includes(`DROP TRIGGER IF EXISTS ${trigger}`)))!.sql;

describe('a migrated store holds no triggers and no functions', () => {
  const sqlite = freshStorePerTest(sqliteStores);
  const postgres = freshStorePerTest(postgresStores);

  test('SQLite; and the drop migration clears what the release before it made', () => {
    const { store } = sqlite();
    const db = (store as unknown as { sqlite: Database }).sqlite;
    const triggers = () => db.query("SELECT name FROM sqlite_master WHERE type = 'trigger'").all();
    expect(triggers()).toEqual([]);

    // As that release left a store: one of its triggers (the drop migration names every one).
    db.run("CREATE TRIGGER `daily_stats_license_insert` AFTER INSERT ON `licenses` BEGIN SELECT 1; END");
    db.run("CREATE TRIGGER `subscription_counts_delete` AFTER DELETE ON `subscriptions` BEGIN SELECT 1; END");
    for (const statement of dropsOf(SQLITE_MIGRATIONS, '`daily_stats_license_insert`')) db.run(statement);
    expect(triggers()).toEqual([]);
  });

  test('PostgreSQL; and the drop migration clears what the release before it made', async () => {
    const { store } = postgres();
    const { sql } = store as unknown as PostgresStore;
    const triggers = async () => [...(await sql`SELECT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace`)];
    const functions = async () => [...(await sql`SELECT proname FROM pg_proc WHERE pronamespace = current_schema()::regnamespace`)];
    expect(await triggers()).toEqual([]);
    expect(await functions()).toEqual([]);

    await sql.unsafe('CREATE FUNCTION console_stats_orders() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$');
    await sql.unsafe('CREATE TRIGGER console_stats_orders_insert AFTER INSERT ON orders FOR EACH STATEMENT EXECUTE FUNCTION console_stats_orders()');
    for (const statement of dropsOf(POSTGRES_MIGRATION_LIST, 'console_stats_orders_insert')) await sql.unsafe(statement);
    expect(await triggers()).toEqual([]);
    expect(await functions()).toEqual([]);
  });
});
