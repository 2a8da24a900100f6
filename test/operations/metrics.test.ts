import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, type RunningServer } from '../support/server-process.ts';
import { receiver } from '../webhooks/support.ts';
import { testApi } from '../support/http.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

/** One sample's value on the page (0 when absent): `name{labels}` exactly as Prometheus prints it. */
function sample(page: string, series: string): number {
  const line = page.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/**
 * The real service, driven through a scripted run (sign-up, validations, a refused one, a sign-in
 * code, a webhook that fails for good), then its metrics page: it shows exactly the run's counts.
 */
describe('GET /metrics and request ids', () => {
  let server: RunningServer;
  const hook = receiver(() => 500);
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}/v1${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  const metrics = async () => {
    const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return response.text();
  };

  beforeAll(async () => {
    server = await startServer({
      DATABASE_URL: 'sqlite::memory:',
      METRICS_TOKEN: TOKEN,
      VALIDATE_RATE_LIMIT_PER_MINUTE: '3',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_RETRY_SCHEDULE_SECONDS: '0',
      WEBHOOK_POLL_MS: '50',
    });
  });
  afterAll(async () => {
    await server?.stop();
    hook.stop();
  });

  test('the page asks for the bearer token, in the contract error shape', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const response = await fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(401);
      const body = (await response.json()) as any;
      expect(body.error.code).toBe('unauthorized');
      expect(body.error.requestId).toBe(response.headers.get('x-request-id')!);
    }
  });

  test('a well-formed X-Request-Id is kept and echoed; any other is replaced', async () => {
    const kept = await call('GET', '/health', undefined, { 'x-request-id': 'lb-7f3a:retry.2_x' });
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a:retry.2_x');
    for (const bad of ['has space', 'x'.repeat(129), 'ü', '']) {
      const replaced = await call('GET', '/health', undefined, { 'x-request-id': bad });
      expect(replaced.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{12}_[0-9a-z]+$/);
    }
    const made = await call('GET', '/health');
    expect(made.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{12}_[0-9a-z]+$/);
  });

  test('every error body and the request\'s log line carry the id', async () => {
    const missing = await call('GET', '/no/such/route', undefined, { 'x-request-id': 'trace-404' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'not_found', requestId: 'trace-404' });
    const invalid = await call('POST', '/developers/signup', { email: 'nope' }, { 'x-request-id': 'trace-400' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({ code: 'invalid_request', requestId: 'trace-400' });
    expect(invalid.body.error.details).toBeDefined();
    const unauthorized = await call('GET', '/developers/products', undefined, { 'x-api-key': 'sk_nope', 'x-request-id': 'trace-401' });
    expect(unauthorized.body.error).toMatchObject({ code: 'unauthorized', requestId: 'trace-401' });
    await Bun.sleep(50);
    const lines = server.stdout().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    for (const id of ['trace-404', 'trace-400', 'trace-401']) {
      expect(lines.filter((l) => l.requestId === id && l.msg === 'request')).toHaveLength(1);
    }
    expect(lines.find((l) => l.requestId === 'trace-404').path).toBe('(no route)');
  });

  test('after a scripted run, the page shows the run\'s counts', async () => {
    const before = await metrics();
    const signup = await call('POST', '/developers/signup', { email: 'metrics@example.com', name: 'Metrics' });
    expect(signup.status).toBe(201);
    const key = { 'x-api-key': signup.body.apiKey };
    const product = await call('POST', '/developers/products', { name: 'Pro', price: 1000, currency: 'usd' }, key);
    const grant = await call('POST', '/developers/licenses', { productId: product.body.id, email: 'buyer@example.com' }, key);
    expect(grant.status).toBe(201);
    const endpoint = await call('POST', '/developers/webhook-endpoints', { url: hook.url, events: ['license.revoked'] }, key);
    expect(endpoint.status).toBe(201);

    // 3 valid validations, the 4th refused by the per-license limit; 2 junk keys.
    const validate = (licenseKey: string) => call('POST', '/licenses/validate', { licenseKey, machineFingerprint: 'machine-1' }, key);
    for (let i = 0; i < 3; i++) expect((await validate(grant.body.licenseKey)).body.valid).toBe(true);
    expect((await validate(grant.body.licenseKey)).status).toBe(429);
    for (let i = 0; i < 2; i++) expect((await validate('junk')).body.reason).toBe('invalid_format');
    // A sign-in code by e-mail.
    expect((await call('POST', '/auth/login/init', { email: 'buyer@example.com' })).status).toBe(200);
    // A test event to an endpoint that answers 500: one retry (schedule "0"), then failed for good.
    expect((await call('POST', `/developers/webhook-endpoints/${endpoint.body.id}/test`, undefined, key)).status).toBeLessThan(300);
    let page = await metrics();
    for (let i = 0; i < 100 && sample(page, 'webhook_delivery_attempts_total{outcome="failed"}') < 1; i++) {
      await Bun.sleep(100);
      page = await metrics();
    }

    expect(sample(page, 'license_validations_total{verdict="valid"}')).toBe(3);
    expect(sample(page, 'license_validations_total{verdict="invalid_format"}')).toBe(2);
    expect(sample(page, 'rate_limit_refusals_total{limit="validate:license"}')).toBe(1);
    expect(sample(page, 'codes_sent_total{channel="email"}')).toBe(1);
    expect(sample(page, 'webhook_delivery_attempts_total{outcome="retrying"}')).toBe(1);
    expect(sample(page, 'webhook_delivery_attempts_total{outcome="failed"}')).toBe(1);
    expect(sample(page, 'webhook_outbox_deliveries{status="failed"}')).toBe(1);
    expect(sample(page, 'webhook_outbox_deliveries{status="pending"}')).toBe(0);
    expect(sample(page, 'rate_limits_failing_open')).toBe(0);
    // SQLite: one connection and no pool gate, so no pool gauges.
    expect(page).not.toMatch(/^db_pool_\w+ /m);
    const route = (method: string, path: string, status: number) => `http_request_duration_seconds_count{method="${method}",route="${path}",status="${status}"}`;
    const delta = (series: string) => sample(page, series) - sample(before, series);
    expect(delta(route('POST', '/v1/licenses/validate', 200))).toBe(5);
    expect(delta(route('POST', '/v1/licenses/validate', 429))).toBe(1);
    expect(delta(route('POST', '/v1/developers/signup', 201))).toBe(1);
    expect(sample(page, route('GET', '(no route)', 404))).toBe(1);
    // Route patterns, never the ids in a path.
    expect(page).toContain(`route="/v1/developers/webhook-endpoints/:id/test"`);
    expect(page).not.toContain(endpoint.body.id);
    // The failure for good is logged once, with the request-free fields that find it.
    const failed = server.stdout().split('\n').filter((l) => l.includes('webhook delivery failed for good')).map((l) => JSON.parse(l));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: 'warn', endpointId: endpoint.body.id, eventType: 'webhook.test', attempts: 2 });
  });
});

describe('without METRICS_TOKEN', () => {
  test('there is no metrics page: a 404 in the contract shape', async () => {
    const response = await testApi().app.handle(new Request('http://localhost/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }));
    expect(response.status).toBe(404);
    expect(((await response.json()) as any).error.code).toBe('not_found');
  });

  test('a weak or malformed token stops start-up', () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    for (const bad of ['short', 'has a space in it 0123456789']) expect(() => loadConfig({ METRICS_TOKEN: bad })).toThrow(ConfigError);
  });
});
