import { describe, expect, test } from 'bun:test';
import type { Database } from 'bun:sqlite';
import type { PostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import { freshStorePerTest, postgresStores, sqliteStores } from '../contracts/stores.ts';

/** The rule since the console's rollups moved into the repositories: SQL holds the schema and its constraints, no logic. */
describe('a migrated store holds no triggers and no functions', () => {
  const sqlite = freshStorePerTest(sqliteStores);
  const postgres = freshStorePerTest(postgresStores);

  test('SQLite', () => {
    const { store } = sqlite();
    const rows = (store as unknown as { sqlite: Database }).sqlite.query("SELECT name FROM sqlite_master WHERE type = 'trigger'").all();
    expect(rows).toEqual([]);
  });

  test('PostgreSQL', async () => {
    const { store } = postgres();
    const { sql } = store as unknown as PostgresStore;
    const triggers = await sql`SELECT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace`;
    const functions = await sql`SELECT proname FROM pg_proc WHERE pronamespace = current_schema()::regnamespace`;
    expect([...triggers]).toEqual([]);
    expect([...functions]).toEqual([]);
  });
});
