import { SQL } from 'bun';
import { afterAll, afterEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migratePostgres, POSTGRES_MIGRATIONS } from '../../src/adapters/postgres/postgres-migrate.ts';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import type { Store } from '../../src/ports/deps.ts';
import { givenLicense, unique } from '../contracts/builders.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';

const admin = new SQL({ url: TEST_POSTGRES_URL, max: 2 });
const schemas: string[] = [];
const opened: Store[] = [];

function freshSchema(): string {
  const schema = `t_${unique()}`;
  schemas.push(schema);
  return schema;
}

async function open(schema: string): Promise<Store> {
  const store = await openPostgresStore(TEST_POSTGRES_URL, { schema });
  opened.push(store);
  return store;
}

async function tablesOf(schema: string): Promise<string[]> {
  const rows = await admin`SELECT table_name FROM information_schema.tables WHERE table_schema = ${schema} ORDER BY table_name`;
  return rows.map((r: { table_name: string }) => r.table_name);
}

async function appliedMigrations(schema: string): Promise<number> {
  const [row] = await admin.unsafe(`SELECT count(*)::int AS n FROM "${schema}"."__drizzle_migrations"`);
  return row.n;
}

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const schema of schemas.splice(0)) await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
});

afterAll(() => admin.close());

describe('PostgreSQL migrations at start-up', () => {
  const committed = readMigrationFiles({ migrationsFolder: POSTGRES_MIGRATIONS });

  test('opening a store creates its schema and applies every committed migration', async () => {
    const schema = freshSchema();

    await open(schema);

    expect(await tablesOf(schema)).toContain('licenses');
    expect(await appliedMigrations(schema)).toBe(committed.length);
  });

  test('three instances starting at once on a fresh schema all open, and each migration is applied once', async () => {
    const schema = freshSchema();

    const stores = await Promise.all([open(schema), open(schema), open(schema)]);

    expect(await appliedMigrations(schema)).toBe(committed.length);
    const pings = await Promise.all(stores.map((s) => s.ping()));
    expect(pings).toEqual([true, true, true]);
    const { license } = await givenLicense(stores[0]!);
    expect(await stores[2]!.licenses.findById(license.id)).toEqual(license);
  });

  test('reopening a migrated schema applies nothing and keeps the data', async () => {
    const schema = freshSchema();
    const first = await open(schema);
    const { license } = await givenLicense(first);
    await first.close();
    opened.splice(opened.indexOf(first), 1);

    const again = await open(schema);

    expect(await appliedMigrations(schema)).toBe(committed.length);
    expect(await again.licenses.findById(license.id)).toEqual(license);
  });

  test('a migration that fails leaves nothing behind: no schema change, nothing recorded', async () => {
    const schema = freshSchema();
    const folder = mkdtempSync(join(tmpdir(), 'pg-migrations-'));
    mkdirSync(join(folder, 'meta'));
    const entries = [
      { idx: 0, version: '7', when: 1, tag: '0000_good', breakpoints: true },
      { idx: 1, version: '7', when: 2, tag: '0001_bad', breakpoints: true },
    ];
    writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({ version: '7', dialect: 'postgresql', entries }));
    writeFileSync(join(folder, '0000_good.sql'), 'CREATE TABLE "kept_if_committed" ("id" text PRIMARY KEY);');
    writeFileSync(join(folder, '0001_bad.sql'), 'CREATE TABLE "broken" ("id" no_such_type);');
    const client = new SQL({ url: TEST_POSTGRES_URL, max: 1 });

    const outcome = migratePostgres(client, schema, { migrationsFolder: folder }).finally(() => client.close());

    await expect(outcome).rejects.toThrow();
    const [exists] = await admin`SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = ${schema}`;
    expect(exists.n).toBe(0);
    rmSync(folder, { recursive: true, force: true });
  });

  test('a schema name that is not a plain lower-case identifier is refused before connecting', async () => {
    const refused = openPostgresStore(TEST_POSTGRES_URL, { schema: 'x"; DROP SCHEMA public; --' });

    await expect(refused).rejects.toThrow(/schema name/);
  });
});
