import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { depsFor } from '../support/deps.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';

/**
 * A full disk, made by capping the file's pages (max_page_count) once a seller and a license exist:
 * every write fails with SQLITE_FULL. Requests answer 503 unavailable, the readiness probe says so,
 * the log says so once, and once there is room again everything recovers without a restart.
 */
describe('SQLite with a full disk', () => {
  let dir: string;
  let store: ReturnType<typeof openSqliteStore>;
  let api: TestApi;
  const logs: string[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'full-disk-'));
    store = openSqliteStore(join(dir, 'licensing.db'), { owner: true, cacheEntries: 0, busyTimeoutMs: 100 });
    api = testApi({ deps: depsFor(store), logs, ping: store.ping });
  });
  afterAll(async () => {
    await store?.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  test('writes answer 503 unavailable, the ready probe 503, /health/live 200; room again recovers', async () => {
    const s = await seller(api);
    const { licenseKey } = await s.grant();
    const pages = Number(store.sqlite.query('PRAGMA page_count').values()[0]![0]);
    store.sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)');
    store.sqlite.run(`PRAGMA max_page_count = ${pages}`);
    const before = logs.length;

    const grants = await Promise.all(Array.from({ length: 5 }, (_, i) =>
      api.call('POST', '/developers/licenses', { key: s.apiKey, body: { productId: s.product.id, email: `full${i}@example.com`, metadata: { pad: 'x'.repeat(2000) } } })));
    for (const reply of grants) {
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({ error: { code: 'unavailable', message: expect.any(String) } });
      expect(reply.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    const ready = await api.call('GET', '/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.error.code).toBe('unavailable');
    expect((await api.call('GET', '/health')).status).toBe(503);
    expect((await api.call('GET', '/health/live')).status).toBe(200);
    const lines = logs.slice(before);
    expect(lines.filter((line) => line.includes('store unavailable'))).toHaveLength(1);
    expect(lines.find((line) => line.includes('store unavailable'))).toContain('SQLITE_FULL');
    expect(lines.some((line) => line.includes('unhandled error'))).toBe(false);

    store.sqlite.run('PRAGMA max_page_count = 1073741823');
    const granted = await api.call('POST', '/developers/licenses', { key: s.apiKey, body: { productId: s.product.id, email: 'room@example.com' } });
    expect(granted.status).toBe(201);
    const validated = await api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint: 'm' } });
    expect(validated.status).toBe(200);
  });
});

describe('SQLite busy past its wait', () => {
  let dir: string;
  let store: ReturnType<typeof openSqliteStore>;
  let api: TestApi;
  const logs: string[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'busy-'));
    // Not the owner: another connection may take the write lock, as a backup or the CLI could.
    store = openSqliteStore(join(dir, 'licensing.db'), { busyTimeoutMs: 150 });
    api = testApi({ deps: depsFor(store), logs, ping: store.ping });
  });
  afterAll(async () => {
    await store?.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  test('a write lock held elsewhere: writes answer 503 unavailable after the busy wait, then succeed', async () => {
    const s = await seller(api);
    const other = new Database(join(dir, 'licensing.db'));
    other.run('BEGIN IMMEDIATE');
    try {
      const started = performance.now();
      const reply = await api.call('POST', '/developers/licenses', { key: s.apiKey, body: { productId: s.product.id, email: 'busy@example.com' } });
      expect(reply.status).toBe(503);
      expect(reply.body.error.code).toBe('unavailable');
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(logs.find((line) => line.includes('store unavailable'))).toContain('SQLITE_BUSY');
    } finally {
      other.run('ROLLBACK');
      other.close();
    }
    expect((await api.call('POST', '/developers/licenses', { key: s.apiKey, body: { productId: s.product.id, email: 'busy@example.com' } })).status).toBe(201);
  });
});
