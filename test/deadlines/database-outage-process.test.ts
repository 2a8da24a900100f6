import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { SQL } from 'bun';
import { seller, type Reply } from '../support/http.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';
import { freshPostgresSchema, randomMasterKey, startServer, type PostgresSchema, type RunningServer } from '../support/server-process.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

/**
 * The real service, at its default deadlines, reaching PostgreSQL through a proxy the test cuts:
 * what an operator sees in its log during an outage, and what callers get behind a table lock.
 */
describe('the real service when PostgreSQL goes away', () => {
  let pg: PostgresSchema;
  let proxy: TcpProxy;
  let server: RunningServer;
  let validate: () => Promise<Reply>;
  let call: (method: string, path: string, options?: { key?: string; body?: unknown }) => Promise<Reply>;

  beforeAll(async () => {
    pg = freshPostgresSchema();
    const target = new URL(TEST_POSTGRES_URL);
    proxy = await startTcpProxy({ hostname: target.hostname, port: Number(target.port || 5432) });
    server = await startServer({ DATABASE_URL: proxy.url(pg.databaseUrl), MASTER_KEY: randomMasterKey(), RETENTION_SWEEP_MINUTES: '0' });
    call = async (method, path, options = {}) => {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(options.key ? { 'x-api-key': options.key } : {}) };
      const response = await fetch(`${server.url}/v1${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
      return { status: response.status, headers: response.headers, body: await response.json().catch(() => null) };
    };
    const s = await seller({ call } as Parameters<typeof seller>[0]);
    const { licenseKey } = await s.grant();
    validate = () => call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint: 'm' } });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await pg?.drop();
  });

  /** The JSON log lines printed since `from` characters of stdout. */
  const linesSince = (from: number) => server.stdout().slice(from).split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

  test('an outage is logged once, not once per request nor per background round; every answer is 503, and it recovers', async () => {
    expect((await validate()).status).toBe(200);
    const from = server.stdout().length;
    await proxy.cut();
    const answers: Reply[] = [];
    try {
      // Three seconds of callers: the mail and webhook rounds (every second) fail meanwhile too.
      for (let wave = 0; wave < 6; wave++) {
        answers.push(...(await Promise.all(Array.from({ length: 20 }, validate))));
        await Bun.sleep(500);
      }
      expect((await call('GET', '/health/live')).status).toBe(200);
    } finally {
      await proxy.restore();
    }
    expect(answers.filter((a) => a.status !== 503 || a.body?.error?.code !== 'unavailable' || !a.headers.get('retry-after'))).toEqual([]);
    const lines = linesSince(from).filter((line) => line.msg !== 'request');
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    expect(lines.filter((line) => String(line.msg).startsWith('store unavailable'))).toHaveLength(1);
    // Nothing else repeats: the background rounds report their failures to the same episode.
    expect(lines.filter((line) => line.level === 'warn').length).toBeLessThanOrEqual(2);
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await validate()).status;
      if (status !== 200) await Bun.sleep(100);
    }
    expect(status).toBe(200);
  }, 60_000);

  test('behind LOCK TABLE licenses, at the default deadlines: every answer a 503 within 3 s (not 10), liveness unaffected', async () => {
    expect((await validate()).status).toBe(200);
    const holder = new SQL({ url: TEST_POSTGRES_URL, max: 1 });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const isHeld = new Promise<void>((resolve) => (held = resolve));
    const done = holder.begin(async (tx) => {
      await tx.unsafe(`LOCK TABLE "${pg.name}".licenses IN ACCESS EXCLUSIVE MODE`);
      held();
      await released;
    });
    try {
      await isHeld;
      const lockedAt = performance.now();
      const timed = async () => {
        const reply = await validate();
        return { status: reply.status, code: reply.body?.error?.code, ms: performance.now() - lockedAt };
      };
      const burst = Promise.all(Array.from({ length: 40 }, timed));
      const live = await call('GET', '/health/live');
      const answers = await burst;
      expect(live.status).toBe(200);
      expect(answers.filter((a) => a.status !== 503 || a.code !== 'unavailable')).toEqual([]);
      const first = Math.min(...answers.map((a) => a.ms));
      const last = Math.max(...answers.map((a) => a.ms));
      console.log(`behind the lock: first 503 after ${Math.round(first)} ms, last after ${Math.round(last)} ms`);
      // One lock wait (DB_LOCK_TIMEOUT_MS, 2 s) or one pool wait (DB_POOL_WAIT_MS, 2 s) each: never
      // several in turn behind the statements pipelined before it on its connection (it was 10 s).
      expect(first).toBeLessThan(3_000);
      expect(last).toBeLessThan(3_000);
    } finally {
      release();
      await done;
      await holder.close();
    }
    expect((await validate()).status).toBe(200);
  }, 60_000);
});
