import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { SQL } from 'bun';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { openPostgresStore, type PostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import { depsFor } from '../support/deps.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { testSchemas } from '../support/postgres-schemas.ts';
import { freePort } from '../support/server-process.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';

/**
 * Deadlines on a real PostgreSQL: another session holds a license row, then the whole table, while
 * validations and the readiness probe run. Deadlines are short here (lock 300 ms, statement 1.5 s)
 * so the faults last seconds, not the 20 s seen in production; the bounds asserted are generous.
 */
describe('PostgreSQL behind a lock', () => {
  let schema: string;
  let store: PostgresStore;
  let api: TestApi;
  let holder: SQL;
  let licenseId: string;
  let licenseKey: string;
  let publishableKey: string;
  const logs: string[] = [];

  beforeAll(async () => {
    schema = await testSchemas().take();
    store = await openPostgresStore(TEST_POSTGRES_URL, { schema, max: 4, statementTimeoutMs: 1_500, lockTimeoutMs: 300 });
    api = testApi({ deps: depsFor(store), logs, ping: store.ping, readyTimeoutMs: 1_000 });
    const s = await seller(api);
    publishableKey = s.publishableKey;
    ({ licenseKey, license: { id: licenseId } } = await s.grant());
    holder = new SQL({ url: TEST_POSTGRES_URL, max: 1 });
  });
  afterAll(async () => {
    await holder?.close();
    await store?.close();
    if (schema) await testSchemas().give(schema);
  });

  const validate = (machineFingerprint: string) => api.call('POST', '/licenses/validate', { key: publishableKey, body: { licenseKey, machineFingerprint } });
  const timed = async <T>(run: () => Promise<T>) => {
    const started = performance.now();
    const result = await run();
    return { result, ms: performance.now() - started };
  };

  /** Holds `lock` in a transaction on the holder's connection until `release` resolves. */
  function holding(lock: string): { held: Promise<void>; release: () => void; done: Promise<unknown> } {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const heldPromise = new Promise<void>((resolve) => (held = resolve));
    const done = holder.begin(async (tx) => {
      await tx.unsafe(lock);
      held();
      await released;
    });
    return { held: heldPromise, release, done };
  }

  test('a license row held FOR UPDATE: six validations and the readiness probe answer within their deadlines', async () => {
    expect((await validate('m-warm')).status).toBe(200);
    const lock = holding(`SELECT id FROM "${schema}".licenses WHERE id = '${licenseId}' FOR UPDATE`);
    await lock.held;
    try {
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, (_, i) => timed(() => validate(`m-${i}`))),
        timed(() => api.call('GET', '/health/ready')),
        timed(() => api.call('GET', '/health')),
      ]);
      for (const { result, ms } of answers) {
        expect([200, 503]).toContain(result.status);
        if (result.status === 503) {
          expect(result.body.error.code).toBe('unavailable');
          expect(result.headers.get('retry-after')).toMatch(/^\d+$/);
        }
        expect(ms).toBeLessThan(5_000);
      }
    } finally {
      lock.release();
      await lock.done;
    }
    expect((await validate('m-after')).status).toBe(200);
  });

  test('the whole table locked: validations answer 503 unavailable within the lock deadline, logged once, and recover', async () => {
    const before = logs.length;
    const lock = holding(`LOCK TABLE "${schema}".licenses IN ACCESS EXCLUSIVE MODE`);
    await lock.held;
    let answers: { result: Awaited<ReturnType<typeof validate>>; ms: number }[];
    try {
      answers = await Promise.all(Array.from({ length: 12 }, (_, i) => timed(() => validate(`t-${i}`))));
    } finally {
      lock.release();
      await lock.done;
    }
    for (const { result, ms } of answers) {
      expect(result.status).toBe(503);
      expect(result.body).toEqual({ error: { code: 'unavailable', message: expect.any(String) } });
      expect(result.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(ms).toBeLessThan(5_000);
    }
    const warnings = logs.slice(before).filter((line) => line.includes('store unavailable'));
    expect(warnings).toHaveLength(1);
    // The lock deadline, or a read answered behind it in the same instant (lock-episode.ts).
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 'warn', reason: expect.stringMatching(/^(55P03|ERR_STUCK_BEHIND_LOCK)$/) });
    expect(logs.slice(before).some((line) => line.includes('unhandled error'))).toBe(false);
    // A lock is local to some rows: the instance stays ready (one hot row must not empty the rotation).
    expect((await api.call('GET', '/health/ready')).status).toBe(200);
    expect((await validate('t-after')).status).toBe(200);
  });
});

describe('PostgreSQL pool with a wait limit', () => {
  let schema: string;
  let store: PostgresStore;
  let api: TestApi;
  let holder: SQL;
  const logs: string[] = [];

  beforeAll(async () => {
    schema = await testSchemas().take();
    // One connection, 4 in flight on it; the rest wait 200 ms at most for a turn.
    store = await openPostgresStore(TEST_POSTGRES_URL, { schema, max: 1, statementTimeoutMs: 3_000, lockTimeoutMs: 1_000, poolWaitMs: 200 });
    api = testApi({ deps: depsFor(store), logs, ping: store.ping, readyTimeoutMs: 1_000 });
    holder = new SQL({ url: TEST_POSTGRES_URL, max: 1 });
  });
  afterAll(async () => {
    await holder?.close();
    await store?.close();
    if (schema) await testSchemas().give(schema);
  });

  test('behind a locked table, requests beyond the pool give up after the wait limit, not the lock deadline: no pile-up', async () => {
    const s = await seller(api);
    const { licenseKey } = await s.grant();
    const validate = () => api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint: 'p' } });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const isHeld = new Promise<void>((resolve) => (held = resolve));
    const done = holder.begin(async (tx) => {
      await tx.unsafe(`LOCK TABLE "${schema}".licenses IN ACCESS EXCLUSIVE MODE`);
      held();
      await released;
    });
    await isHeld;
    let answers: { status: number; code: string; ms: number }[];
    try {
      answers = await Promise.all(Array.from({ length: 16 }, async () => {
        const started = performance.now();
        const reply = await validate();
        return { status: reply.status, code: reply.body?.error?.code, ms: performance.now() - started };
      }));
    } finally {
      release();
      await done;
    }
    expect(answers.every((a) => a.status === 503 && a.code === 'unavailable')).toBe(true);
    // Most never reached the pool: they were refused at the wait limit, well before the lock deadline.
    expect(answers.filter((a) => a.ms < 900).length).toBeGreaterThanOrEqual(8);
    expect(logs.filter((line) => line.includes('store unavailable'))).toHaveLength(1);
    expect((await validate()).status).toBe(200);
  });
});

/** A TCP relay to the test PostgreSQL that the test can stop (every connection cut, port refused) and start again. */
function relay(port: number) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(new URL(TEST_POSTGRES_URL).port ? Number(new URL(TEST_POSTGRES_URL).port) : 5432, new URL(TEST_POSTGRES_URL).hostname || '127.0.0.1');
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('error', () => {});
          s.on('close', () => sockets.delete(s));
        }
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });
  return { start, stop };
}

describe('PostgreSQL stopped and started again', () => {
  let schema: string;
  let store: PostgresStore;
  let api: TestApi;
  let pg: ReturnType<typeof relay>;
  const logs: string[] = [];

  beforeAll(async () => {
    schema = await testSchemas().take();
    const port = await freePort();
    pg = relay(port);
    await pg.start();
    const url = new URL(TEST_POSTGRES_URL);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    store = await openPostgresStore(url.href, { schema, max: 2, statementTimeoutMs: 1_500, lockTimeoutMs: 300, connectTimeoutMs: 1_000 });
    api = testApi({ deps: depsFor(store), logs, ping: store.ping, readyTimeoutMs: 1_000 });
  });
  afterAll(async () => {
    await pg?.stop();
    await store?.close();
    if (schema) await testSchemas().give(schema);
  });

  test('answers 503 unavailable while it is down, logged once, and recovers without a restart', async () => {
    const s = await seller(api);
    const { licenseKey } = await s.grant();
    const validate = () => api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint: 'm' } });
    expect((await validate()).status).toBe(200);

    await pg.stop();
    const before = logs.length;
    const down = await Promise.all([validate(), validate(), validate(), api.call('GET', '/health/ready'), api.call('GET', '/health')]);
    for (const reply of down) {
      expect(reply.status).toBe(503);
      expect(reply.body.error.code).toBe('unavailable');
    }
    expect((await api.call('GET', '/health/live')).status).toBe(200);
    const downLogs = logs.slice(before);
    expect(downLogs.filter((line) => line.includes('store unavailable'))).toHaveLength(1);
    expect(downLogs.some((line) => line.includes('unhandled error'))).toBe(false);

    await pg.start();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await validate()).status;
      if (status !== 200) await Bun.sleep(100);
    }
    expect(status).toBe(200);
  });
});
