import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { instancesOf, useService } from './cluster.ts';

const JOURNAL = join(import.meta.dir, '..', '..', 'src', 'adapters', 'postgres', 'migrations', 'meta', '_journal.json');

describe('three instances started at the same moment on a fresh schema', () => {
  // useService starts all three at once (not one after another) and fails if any does not come up healthy.
  const service = useService(3);

  test('all three come up healthy', async () => {
    const health = await Promise.all(instancesOf(service).map((i) => service.on(i)('GET', '/health')));

    expect(health.map((r) => r.body)).toEqual([{ status: 'ok' }, { status: 'ok' }, { status: 'ok' }]);
    expect(service.cluster().instances.map((instance) => instance.proc.exitCode)).toEqual([null, null, null]);
  });

  test('each committed migration was applied exactly once', async () => {
    const committed = (await Bun.file(JOURNAL).json()).entries as unknown[];

    const applied = await service.db.query<{ hash: string }>('SELECT hash FROM "__drizzle_migrations"');

    expect(applied).toHaveLength(committed.length);
    expect(new Set(applied.map((m) => m.hash)).size).toBe(committed.length);
  });

  test('they share one database: a seller signed up through one is known to the others', async () => {
    const signup = await service.on(0)('POST', '/developers/signup', { body: { email: `seller-${crypto.randomUUID()}@example.com`, name: 'Shared' } });

    const products = await Promise.all([1, 2].map((i) => service.on(i)('GET', '/developers/products', { key: signup.body.apiKey })));

    expect(signup.status).toBe(201);
    expect(products.map((r) => r.status)).toEqual([200, 200]);
  });
});

