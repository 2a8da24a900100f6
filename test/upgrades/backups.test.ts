import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { listSnapshots, snapshotName, snapshotSqlite, snapshotTime } from '../../src/adapters/sqlite/sqlite-backup.ts';
import { loadConfig } from '../../src/config.ts';
import { client, expectStatus } from '../crash/client.ts';
import { startServer, type RunningServer } from '../support/server-process.ts';

const mode = (path: string) => statSync(path).mode & 0o777;

/**
 * BACKUP_DIR: the owning process snapshots its SQLite file while it serves writes; a snapshot with
 * the master key beside it is a whole service again, holding every license granted before it.
 */
describe('SQLite backups under write load', () => {
  const dir = mkdtempSync(join(tmpdir(), 'licensing-backups-'));
  const backups = join(dir, 'backups');
  let server: RunningServer;
  let restored: RunningServer | undefined;
  let publishableKey = '';
  const granted: { licenseKey: string; ackedAt: number }[] = [];

  beforeAll(async () => {
    server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'data', 'licensing.db')}`, BACKUP_DIR: backups, BACKUP_INTERVAL_SECONDS: '1', BACKUP_KEEP: '2', MASTER_KEY: '' });
    const call = client(server.url);
    const signup = await expectStatus(call('POST', '/developers/signup', { body: { email: 'backups@example.com', name: 'Backups' } }), 201, 'signup');
    publishableKey = signup.publishableKey;
    const product = await expectStatus(call('POST', '/developers/products', { key: signup.apiKey, body: { name: 'P', price: 100, currency: 'usd' } }), 201, 'product');
    // Grants go on, four at a time, until three snapshots have been written (the third pushes the first out).
    const written = () => server.stdout().split('\n').filter((line) => line.includes('"backup written"')).length;
    const deadline = Date.now() + 20_000;
    await Promise.all(Array.from({ length: 4 }, async (_, worker) => {
      for (let i = 0; written() < 3 && Date.now() < deadline; i++) {
        const body = { productId: product.id, email: `w${worker}-${i}@example.com` };
        const grant = await expectStatus(call('POST', '/developers/licenses', { key: signup.apiKey, body }), 201, 'grant');
        granted.push({ licenseKey: grant.licenseKey, ackedAt: Date.now() });
      }
    }));
    expect(await server.stop()).toBe(0);
  });

  afterAll(async () => {
    if (server.proc.exitCode === null) await server.stop('SIGKILL');
    if (restored && restored.proc.exitCode === null) await restored.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  test('snapshots are written by time, owner-only, the newest BACKUP_KEEP kept, the generated key beside them', () => {
    const snapshots = listSnapshots(backups);
    expect(snapshots).toHaveLength(2);
    expect(readdirSync(backups).sort()).toEqual([...snapshots, 'master.key'].sort());
    expect(mode(backups)).toBe(0o700);
    for (const name of [...snapshots, 'master.key']) expect(mode(join(backups, name))).toBe(0o600);
    expect(readFileSync(join(backups, 'master.key'))).toEqual(readFileSync(join(dir, 'data', 'master.key')));
    for (const name of snapshots) {
      const db = new Database(join(backups, name), { readonly: true });
      expect(db.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
      db.close();
    }
  });

  test('started on the newest snapshot, every license granted before it validates', async () => {
    const newest = listSnapshots(backups).at(-1)!;
    const takenAt = snapshotTime(newest)!.getTime();
    const before = granted.filter((g) => g.ackedAt < takenAt);
    expect(before.length).toBeGreaterThan(0);
    // The documented restore: the snapshot as the database file, the key beside it.
    const into = join(dir, 'restored');
    mkdirSync(into, { mode: 0o700 });
    copyFileSync(join(backups, newest), join(into, 'licensing.db'));
    copyFileSync(join(backups, 'master.key'), join(into, 'master.key'));
    restored = await startServer({ DATABASE_URL: `sqlite:${join(into, 'licensing.db')}`, MASTER_KEY: '' });
    const call = client(restored.url);
    const answers: boolean[] = [];
    for (let i = 0; i < before.length; i += 16) {
      answers.push(...(await Promise.all(before.slice(i, i + 16).map(async ({ licenseKey }) => {
        const reply = await call('POST', '/licenses/validate', { key: publishableKey, body: { licenseKey, machineFingerprint: 'restored' } });
        return reply.status === 200 && reply.body.valid === true;
      }))));
    }
    expect(answers.filter((ok) => !ok)).toHaveLength(0);
  });
});

describe('snapshotSqlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'licensing-snapshot-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('keeps the newest BACKUP_KEEP, removes a partial one left by a crash, never copies a key it was not given', async () => {
    const store = openSqliteStore(join(dir, 'live.db'), { owner: true });
    const out = join(dir, 'out');
    mkdirSync(out, { mode: 0o700 });
    const partial = join(out, `.${snapshotName(new Date(0))}.tmp`);
    copyFileSync(join(dir, 'live.db'), partial);
    const times = [1, 2, 3, 4].map((h) => new Date(Date.UTC(2026, 10, 27, h)));
    for (const at of times) snapshotSqlite(store.sqlite, { dir: out, keep: 3, now: () => at });
    await store.close();
    expect(readdirSync(out).sort()).toEqual(times.slice(1).map(snapshotName));
    expect(existsSync(partial)).toBe(false);
  });

  test('BACKUP_DIR is refused with PostgreSQL and with an in-memory store; the defaults are hourly, 24 kept', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/test', BACKUP_DIR: '/b' })).toThrow(/pg_dump -Fc/);
    expect(() => loadConfig({ DATABASE_URL: 'sqlite::memory:', BACKUP_DIR: '/b' })).toThrow(/BACKUP_DIR needs a SQLite file/);
    expect(() => loadConfig({ BACKUP_DIR: '/b', BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP must be at least 1/);
    expect(() => loadConfig({ BACKUP_KEEP: '3' })).toThrow(/need BACKUP_DIR/);
    expect(loadConfig({ BACKUP_DIR: '/b' }).backup).toEqual({ dir: '/b', everyMs: 3_600_000, keep: 24 });
  });
});
