import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts';
import { startServer } from '../../support/server-process.ts';
import { client, tempDir } from '../../e2e/support.ts';

/**
 * The SQLite database holds customers' e-mails and phones, token hashes and sealed signing keys:
 * its folder is created 0700, the database, -wal and -shm files 0600, whatever the umask (022 here,
 * the usual default that makes new files world-readable).
 */

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);
let previousUmask: number;

beforeAll(() => {
  previousUmask = process.umask(0o022);
});

afterAll(() => {
  process.umask(previousUmask);
});

describe('the service on a fresh data folder, umask 022', () => {
  const dir = tempDir('licensing-perms-');
  afterAll(() => dir.remove());

  test('data folder 0700; database, -wal and master.key 0600, after real writes', async () => {
    const data = join(dir.path, 'nested', 'data');
    const server = await startServer({ DATABASE_URL: `sqlite:${join(data, 'licensing.db')}`, MASTER_KEY: '' }, { inheritEnv: false, cwd: dir.path });
    try {
      const signup = await client(server.url)('POST', '/developers/signup', { body: { email: 'perms@example.com', name: 'Perms' } });
      expect(signup.status).toBe(201);

      expect(modeOf(join(dir.path, 'nested'))).toBe('700');
      expect(modeOf(data)).toBe('700');
      expect(modeOf(join(data, 'licensing.db'))).toBe('600');
      expect(modeOf(join(data, 'licensing.db-wal'))).toBe('600');
      expect(modeOf(join(data, 'master.key'))).toBe('600');
    } finally {
      await server.stop('SIGKILL');
    }
  });
});

describe('a store opened in-process (shared memory index: a -shm file too), umask 022', () => {
  const dir = tempDir('licensing-perms-');
  afterAll(() => dir.remove());

  test('database, -wal and -shm are 0600, and an existing folder keeps its mode', async () => {
    const folder = join(dir.path, 'kept');
    mkdirSync(folder, { mode: 0o755 });
    const path = join(folder, 'store.db');
    const store = openSqliteStore(path);
    try {
      store.sqlite.run('CREATE TABLE IF NOT EXISTS t (x)');
      store.sqlite.run('INSERT INTO t VALUES (1)');

      expect(modeOf(folder)).toBe('755');
      expect(modeOf(path)).toBe('600');
      expect(modeOf(`${path}-wal`)).toBe('600');
      expect(modeOf(`${path}-shm`)).toBe('600');
    } finally {
      await store.close();
    }
  });

  test('a database file made world-readable before is set to 0600 when opened', async () => {
    const path = join(dir.path, 'old.db');
    const first = openSqliteStore(path);
    await first.close();
    chmodSync(path, 0o644);

    const again = openSqliteStore(path);
    try {
      expect(modeOf(path)).toBe('600');
    } finally {
      await again.close();
    }
  });
});
