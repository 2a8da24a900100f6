import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { freshPostgresSchema, randomMasterKey, startServer, type PostgresSchema, type RunningServer } from '../../support/server-process.ts';

const DAY = 86_400_000;

async function call(url: string, method: string, path: string, key?: string, body?: unknown) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(key && { 'x-api-key': key }) };
  const response = await fetch(`${url}/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

describe('the real service sweeps on its own, on every instance (PostgreSQL)', () => {
  let schema: PostgresSchema;
  let quiet: RunningServer;
  let sweeping: RunningServer | undefined;
  let env: Record<string, string>;
  beforeAll(async () => {
    schema = freshPostgresSchema();
    env = { DATABASE_URL: schema.databaseUrl, MASTER_KEY: randomMasterKey(), LOG_LEVEL: 'info' };
    quiet = await startServer({ ...env, RETENTION_SWEEP_MINUTES: '0' });
  }, 60_000);
  afterAll(async () => {
    await quiet?.stop();
    await sweeping?.stop();
    await schema?.drop();
  });

  test('a checkout that expired unpaid 31 days ago is gone once another instance has started and swept: its status is 404', async () => {
    const signup = await call(quiet.url, 'POST', '/developers/signup', undefined, { email: `dev-${crypto.randomUUID()}@example.com`, name: 'Seller' });
    const product = await call(quiet.url, 'POST', '/developers/products', signup.body.apiKey, { name: 'Pro', price: 1000, currency: 'usd' });
    await schema.query('INSERT INTO processor_accounts (developer_id, account_id, connected_at) VALUES ($1, $2, $3)', [signup.body.id, 'acct_sandbox', Date.now()]);
    const old = await call(quiet.url, 'POST', '/checkout/init', signup.body.publishableKey, { productId: product.body.id });
    const fresh = await call(quiet.url, 'POST', '/checkout/init', signup.body.publishableKey, { productId: product.body.id });
    await schema.query('UPDATE checkout_sessions SET created_at = created_at - $1, expires_at = expires_at - $1 WHERE id = $2', [31 * DAY, old.body.sessionId]);
    const before = await call(quiet.url, 'GET', `/checkout/status/${old.body.sessionId}`);

    sweeping = await startServer(env); // sweeps within 10 s of starting, then every 10 minutes
    let after = before;
    for (let i = 0; i < 200 && after.status === 200; i++) {
      await Bun.sleep(100);
      after = await call(quiet.url, 'GET', `/checkout/status/${old.body.sessionId}`);
    }
    const stillThere = await call(quiet.url, 'GET', `/checkout/status/${fresh.body.sessionId}`);
    // The sweep logs once it has committed: the deletion can be seen a moment before its line.
    for (let i = 0; i < 100 && !sweeping.output().includes('"msg":"retention sweep"'); i++) await Bun.sleep(100);

    expect(before.body.status).toBe('expired');
    expect(after.status).toBe(404);
    expect(stillThere.body.status).toBe('pending');
    expect(sweeping.output()).toContain('"msg":"retention sweep"');
  }, 60_000);

  test('SIGTERM stops the sweeping instance cleanly', async () => {
    expect(await sweeping!.stop('SIGTERM')).toBe(0);
  });
});
