import { SQL } from 'bun';
import { Database } from 'bun:sqlite';
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { SchemaTooNewError } from '../../src/adapters/migrations/schema-version.ts';
import { POSTGRES_MIGRATION_LIST } from '../../src/adapters/postgres/migrations/index.ts';
import { SQLITE_MIGRATIONS } from '../../src/adapters/sqlite/migrations/index.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';
import { spawnService } from '../support/server-process.ts';
import { unique } from '../contracts/builders.ts';

/**
 * A store a newer release has migrated (one migration past the newest this code knows) is refused
 * at start on both stores, with one line, and nothing in it is changed.
 */
const FUTURE = Math.max(...SQLITE_MIGRATIONS.map((m) => m.folderMillis), ...POSTGRES_MIGRATION_LIST.map((m) => m.folderMillis)) + 86_400_000;

describe('a store holding a migration this release does not know', () => {
  const dir = mkdtempSync(join(tmpdir(), 'licensing-too-new-'));
  const admin = new SQL({ url: TEST_POSTGRES_URL, max: 2 });
  const schema = `t_${unique()}`;
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.close();
  });

  const newerSqlite = async (name: string) => {
    const path = join(dir, name);
    await openSqliteStore(path).close();
    const db = new Database(path);
    db.run(`INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('from-a-newer-release', ${FUTURE})`);
    db.close();
    return path;
  };

  test('SQLite: opening it throws, and the file keeps its migrations', async () => {
    const path = await newerSqlite('newer.db');
    expect(() => openSqliteStore(path, { owner: true })).toThrow(SchemaTooNewError);
    expect(() => openSqliteStore(path)).toThrow(/1 migration this release does not know .*run that release/);
    // Closed again on refusal: the file is free, and holds what it held.
    const db = new Database(path);
    expect(db.query('SELECT count(*) AS n FROM __drizzle_migrations').get()).toEqual({ n: SQLITE_MIGRATIONS.length + 1 });
    db.close();
  });

  test('PostgreSQL: opening it throws', async () => {
    await (await openPostgresStore(TEST_POSTGRES_URL, { schema })).close();
    await admin.unsafe(`INSERT INTO "${schema}"."__drizzle_migrations" (hash, created_at) VALUES ('from-a-newer-release', ${FUTURE})`);
    await expect(openPostgresStore(TEST_POSTGRES_URL, { schema })).rejects.toThrow(SchemaTooNewError);
  });

  test('the service refuses to start on it with one line, exit 1', async () => {
    const path = await newerSqlite('service.db');
    const service = await spawnService({ DATABASE_URL: `sqlite:${path}` });
    expect(await service.exited).toBe(1);
    const lines = service.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Start-up failed: The database holds 1 migration this release does not know/);
  });
});
