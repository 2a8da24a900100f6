import { describe, expect, test } from 'bun:test';
import type { AddressLimits } from '../../../src/domain/settings.ts';
import { sqliteDeps, testSettings } from '../../support/deps.ts';
import { seller, testApi, type TestApi } from '../../support/http.ts';
import { from } from './stores.ts';

const HOUR = 3_600_000;

/** The app behind a proxy that sets X-Forwarded-For, with `limits` per client address. */
function behindProxy(limits: Partial<AddressLimits> = {}) {
  const { deps } = sqliteDeps();
  return testApi({ deps: { ...deps, settings: testSettings({ addressLimits: limits, trustedProxyHeader: 'x-forwarded-for' }) } });
}

const signup = (api: TestApi, address: string) =>
  api.call('POST', '/developers/signup', { headers: from(address), body: { email: `dev-${crypto.randomUUID()}@example.com`, name: 'Seller' } });

const loginInit = (api: TestApi, address: string) =>
  api.call('POST', '/auth/login/init', { headers: from(address), body: { email: `buyer-${crypto.randomUUID()}@example.com` } });

async function times<T>(n: number, call: () => Promise<{ status: number } & T>) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await call()).status);
  return statuses;
}

function expectRateLimited(reply: { status: number; headers: Headers; body: any }, maxSeconds: number) {
  expect(reply.status).toBe(429);
  expect(reply.body.error.code).toBe('rate_limited');
  const retryAfter = Number(reply.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
}

describe('POST /developers/signup: at most 10 an hour per client address (default)', () => {
  test('the 11th sign-up from one address in an hour is 429 rate_limited with Retry-After', async () => {
    const api = behindProxy();
    const first = await times(10, () => signup(api, '203.0.113.7'));

    const eleventh = await signup(api, '203.0.113.7');

    expect(first).toEqual(Array(10).fill(201));
    expectRateLimited(eleventh, 3_600);
    expect(eleventh.body.error.message).toContain('10 an hour');
  });

  test('another address signs up meanwhile, and the first may again once its hour is over', async () => {
    const api = behindProxy({ signupsPerHour: 2 });
    await times(3, () => signup(api, '203.0.113.7'));

    const other = await signup(api, '203.0.113.8');
    api.clock.advance(HOUR);
    const later = await signup(api, '203.0.113.7');

    expect([other.status, later.status]).toEqual([201, 201]);
  });

  test('without a trusted proxy header, a forged X-Forwarded-For does not make a new address', async () => {
    const { deps } = sqliteDeps();
    const api = testApi({ deps: { ...deps, settings: testSettings({ addressLimits: { signupsPerHour: 2 } }) } });

    const statuses = await times(3, () => signup(api, `198.51.100.${Math.floor(Math.random() * 250)}`));

    expect(statuses).toEqual([201, 201, 429]);
  });
});

describe('POST /developers/signup as an oracle of sellers’ e-mails (409 email_taken), bounded per client address', () => {
  test('every probe counts, taken or not: 10 answers an hour from one address, then 429 that says nothing of the e-mail', async () => {
    const api = behindProxy();
    const sellers = [];
    for (let i = 0; i < 11; i++) sellers.push(`seller-${crypto.randomUUID()}@example.com`);
    for (const [i, email] of sellers.entries()) await api.call('POST', '/developers/signup', { headers: from(`198.51.100.${i + 1}`), body: { email, name: 'Seller' } });
    const probe = (email: string) => api.call('POST', '/developers/signup', { headers: from('203.0.113.66'), body: { email, name: 'Prober' } });

    const answered = [];
    for (const email of sellers.slice(0, 10)) answered.push(await probe(email));
    const taken = await probe(sellers[10]!);
    const free = await probe(`nobody-${crypto.randomUUID()}@example.com`);

    expect(answered.map((r) => r.body.error.code)).toEqual(Array(10).fill('email_taken'));
    for (const refused of [taken, free]) {
      expectRateLimited(refused, 3_600);
      expect(JSON.stringify(refused.body)).not.toContain('taken');
    }
    expect(taken.body).toEqual(free.body);
  });
});

describe('POST /auth/login/init: at most 60 an hour per client address (default)', () => {
  test('the 61st login init from one address is 429, whichever e-mails it names; another address is served', async () => {
    const api = behindProxy();
    const first = await times(60, () => loginInit(api, '203.0.113.7'));

    const refused = await loginInit(api, '203.0.113.7');
    const other = await loginInit(api, '203.0.113.8');

    expect(first).toEqual(Array(60).fill(200));
    expectRateLimited(refused, 3_600);
    expect(other.status).toBe(200);
  });

  test('a refused init stores no challenge (no decoy row)', async () => {
    const api = behindProxy({ loginInitsPerHour: 1 });
    await loginInit(api, '203.0.113.7');
    const email = `buyer-${crypto.randomUUID()}@example.com`;

    const refused = await api.call('POST', '/auth/login/init', { headers: from('203.0.113.7'), body: { email } });

    expect(refused.status).toBe(429);
    expect(await api.deps.otps.sentSince('login', email, 0)).toEqual([]);
  });
});

describe('POST /checkout/init: at most 60 a minute per client address with a publishable key (default)', () => {
  async function connectedSeller(api: TestApi) {
    const s = await seller(api);
    await api.deps.connections.saveAccount({ developerId: s.id, accountId: 'acct_sandbox', connectedAt: api.clock.now() });
    const init = (key: string, address: string) => api.call('POST', '/checkout/init', { key, headers: from(address), body: { productId: s.product.id } });
    return { ...s, init };
  }

  test('the 61st checkout from one address in a minute is 429 with Retry-After; another address is served', async () => {
    const api = behindProxy();
    const s = await connectedSeller(api);
    const first = await times(60, () => s.init(s.publishableKey, '203.0.113.7'));

    const refused = await s.init(s.publishableKey, '203.0.113.7');
    const other = await s.init(s.publishableKey, '203.0.113.8');

    expect(first).toEqual(Array(60).fill(201));
    expectRateLimited(refused, 60);
    expect(other.status).toBe(201);
  });

  test('the seller’s secret key (its own server) is not counted per address', async () => {
    const api = behindProxy({ checkoutInitsPerMinute: 1 });
    const s = await connectedSeller(api);

    const statuses = await times(3, () => s.init(s.apiKey, '203.0.113.7'));

    expect(statuses).toEqual([201, 201, 201]);
  });

  test('every limited route documents 429 in the OpenAPI document', async () => {
    const api = behindProxy();

    const { paths } = (await api.call('GET', '/openapi.json')).body;

    for (const path of ['/v1/developers/signup', '/v1/auth/login/init', '/v1/checkout/init']) expect(Object.keys(paths[path].post.responses)).toContain('429');
  });
});
