import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { freshPostgresSchema, randomMasterKey, startServer, type PostgresSchema, type RunningServer } from '../../support/server-process.ts';

/** The real process: the client address is the TCP peer's unless TRUSTED_PROXY_HEADER says otherwise. */

async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as any };
}

const signup = (url: string, headers: Record<string, string>) =>
  post(url, '/developers/signup', { email: `dev-${crypto.randomUUID()}@example.com`, name: 'Seller' }, headers);

const forged = () => ({ 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250)}`, 'x-real-ip': `192.0.2.${Math.floor(Math.random() * 250)}` });

describe('the real service without TRUSTED_PROXY_HEADER (PostgreSQL counters)', () => {
  let schema: PostgresSchema;
  let server: RunningServer;
  let publishableKey: string;
  beforeAll(async () => {
    schema = freshPostgresSchema();
    server = await startServer({
      DATABASE_URL: schema.databaseUrl,
      MASTER_KEY: randomMasterKey(),
      LOG_LEVEL: 'warn',
      SIGNUP_RATE_LIMIT_PER_HOUR: '2',
      VALIDATE_INVALID_RATE_LIMIT_PER_MINUTE: '3',
      RETENTION_SWEEP_MINUTES: '0',
    });
    publishableKey = (await signup(server.url, {})).body.publishableKey; // the address's first sign-up of two
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await schema?.drop();
  });

  test('forged X-Forwarded-For and X-Real-IP are ignored: the socket’s address is counted', async () => {
    const statuses = [];
    for (let i = 0; i < 2; i++) statuses.push((await signup(server.url, forged())).status);

    const counted = await schema.query<{ key: string }>(`SELECT key FROM rate_limits WHERE key LIKE 'signup:%'`);

    expect(statuses).toEqual([201, 429]);
    expect(counted.map((r) => r.key)).toEqual(['signup:address:127.0.0.1']);
  });

  test('junk validations with forged headers count under one address too', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const reply = await post(server.url, '/licenses/validate', { licenseKey: 'junk', machineFingerprint: 'm' }, { 'x-api-key': publishableKey, ...forged() });
      statuses.push(reply.status);
    }

    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('the real service with TRUSTED_PROXY_HEADER=x-forwarded-for', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'warn', SIGNUP_RATE_LIMIT_PER_HOUR: '1', TRUSTED_PROXY_HEADER: 'x-forwarded-for' });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  test('the right-most entry (the proxy’s) is the address: each client is counted apart', async () => {
    const a = await signup(server.url, { 'x-forwarded-for': '203.0.113.1' });
    const b = await signup(server.url, { 'x-forwarded-for': '203.0.113.2' });

    expect([a.status, b.status]).toEqual([201, 201]);
  });

  test('what a client puts before the proxy’s entry changes nothing', async () => {
    await signup(server.url, { 'x-forwarded-for': '1.1.1.1, 203.0.113.3' });

    const again = await signup(server.url, { 'x-forwarded-for': '2.2.2.2, 203.0.113.3' });

    expect(again.status).toBe(429);
    expect(Number(again.retryAfter)).toBeGreaterThanOrEqual(1);
  });
});
