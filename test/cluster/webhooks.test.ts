import { afterAll, describe, expect, test } from 'bun:test';
import { Webhook } from 'standardwebhooks';
import { freshPostgresSchema, randomMasterKey, startServer, type RunningServer } from '../support/server-process.ts';
import { http } from '../terminal/journey.ts';
import { useService } from './cluster.ts';
import { receiver } from '../webhooks/support.ts';

/** Webhook settings for processes under test: loopback receivers allowed, quick polling. */
const WEBHOOK_ENV = { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', WEBHOOK_POLL_MS: '100' };

/** Polls `check` until it holds (the senders work in the background); fails after `ms`. */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

async function sellerWithEndpoint(call: ReturnType<typeof http>, url: string) {
  const signup = await call('POST', '/developers/signup', { body: { email: `hooks-${crypto.randomUUID()}@example.com`, name: 'Hooks' } });
  const key = signup.body.apiKey as string;
  const product = await call('POST', '/developers/products', { key, body: { name: 'Pro', price: 1999, currency: 'usd' } });
  const endpoint = await call('POST', '/developers/webhook-endpoints', { key, body: { url, events: ['license.created'] } });
  expect(endpoint.status).toBe(201);
  const grant = (n: number) => call('POST', '/developers/licenses', { key, body: { productId: product.body.id, email: `buyer${n}@example.com` } });
  return { key, secret: endpoint.body.secret as string, endpointId: endpoint.body.id as string, grant };
}

describe('two instances on one PostgreSQL', () => {
  const service = useService(2, () => WEBHOOK_ENV);
  const hook = receiver();
  afterAll(() => hook.stop());

  test('each of 20 events is delivered exactly once, by one instance or the other, signed', async () => {
    const seller = await sellerWithEndpoint(service.on(0), hook.url);
    const granted = await Promise.all(Array.from({ length: 20 }, (_, n) => seller.grant(n).then((r) => (service.next(), r))));
    expect(granted.map((r) => r.status)).toEqual(granted.map(() => 201));

    await until('20 deliveries recorded as succeeded', async () => {
      const rows = await service.db.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'succeeded'`, [seller.endpointId]);
      return Number(rows[0]!.n) === 20;
    });

    const ids = hook.received.map((m) => m.headers['webhook-id']);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    const licenseIds = hook.received.map((m) => new Webhook(seller.secret).verify(m.body, m.headers) as any).map((p) => p.data.license.id);
    expect(licenseIds.sort()).toEqual(granted.map((r) => r.body.license.id).sort());
    const attempts = await service.db.query<{ n: string }>('SELECT count(*) AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = $1', [seller.endpointId]);
    expect(Number(attempts[0]!.n)).toBe(20);
  }, 60_000);
});

describe('a receiver that fails on purpose', () => {
  const service = useService(1, () => ({ ...WEBHOOK_ENV, WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1,1' }));
  const hook = receiver((n) => (n <= 2 ? 500 : 200));
  afterAll(() => hook.stop());

  test('500 twice, then 200: the same message three times, then it has succeeded', async () => {
    const seller = await sellerWithEndpoint(service.on(0), hook.url);
    await seller.grant(1);

    await until('the third attempt', () => hook.received.length >= 3);
    await until('the delivery recorded as succeeded', async () => {
      const log = await service.on(0)('GET', `/developers/webhook-endpoints/${seller.endpointId}/deliveries`, { key: seller.key });
      return log.body.data[0]?.status === 'succeeded';
    });

    expect(new Set(hook.received.map((m) => m.headers['webhook-id'])).size).toBe(1);
    for (const message of hook.received) expect(() => new Webhook(seller.secret).verify(message.body, message.headers)).not.toThrow();
    const log = await service.on(0)('GET', `/developers/webhook-endpoints/${seller.endpointId}/deliveries`, { key: seller.key });
    const detail = await service.on(0)('GET', `/developers/webhook-deliveries/${log.body.data[0].id}`, { key: seller.key });
    expect(detail.body.attemptLog.map((a: { status: number }) => a.status)).toEqual([500, 500, 200]);
  }, 60_000);
});

describe('a sender killed (kill -9) in the middle of a delivery', () => {
  const db = freshPostgresSchema();
  const env = { DATABASE_URL: db.databaseUrl, MASTER_KEY: randomMasterKey(), LOG_LEVEL: 'warn', ...WEBHOOK_ENV, WEBHOOK_LEASE_SECONDS: '3', WEBHOOK_TIMEOUT_SECONDS: '2' };
  let answering = false;
  // Until the crash, the receiver takes the request and never answers.
  const hook = receiver(() => (answering ? new Response('ok') : new Promise<Response>(() => {})));
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const server of servers) if (server.proc.exitCode === null) await server.stop('SIGKILL');
    hook.stop();
    await db.drop();
  });

  test('the event still arrives: another process claims it once the lease runs out, and the signature verifies', async () => {
    const first = await startServer(env);
    servers.push(first);
    const seller = await sellerWithEndpoint(http(first.url), hook.url);
    const license = (await seller.grant(1)).body.license;
    await until('the first process to be sending', () => hook.received.length === 1);

    await first.stop('SIGKILL');
    answering = true;
    const second = await startServer(env);
    servers.push(second);
    await until('the delivery again, from the new process', () => hook.received.length >= 2);

    const [lost, delivered] = hook.received;
    expect(delivered!.headers['webhook-id']).toBe(lost!.headers['webhook-id']);
    const payload = new Webhook(seller.secret).verify(delivered!.body, delivered!.headers) as any;
    expect(payload).toMatchObject({ type: 'license.created', data: { license: { id: license.id } } });
    await until('the delivery recorded as succeeded', async () => {
      const rows = await db.query<{ status: string }>('SELECT status FROM webhook_deliveries WHERE endpoint_id = $1', [seller.endpointId]);
      return rows[0]?.status === 'succeeded';
    });
  }, 60_000);
});
