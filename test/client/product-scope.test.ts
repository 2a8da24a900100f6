import { beforeAll, describe, expect, test } from 'bun:test';
import { ApiError, LicenseClient, type Jwks } from '../../src/client/index.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { fakeFetch, newClient, sellerKey, tempDirs, unreachable } from './support.ts';

const tempDir = tempDirs();

/** The real HTTP app (one per file): a seller selling Pro and Lite, a license of each. */
let api: TestApi;
let s: Awaited<ReturnType<typeof seller>>;
let jwks: Jwks;
let liteId: string;
let proKey: string;
let liteKey: string;

beforeAll(async () => {
  api = testApi();
  s = await seller(api);
  liteId = (await api.call('POST', '/developers/products', { key: s.apiKey, body: { name: 'Lite', price: 0, currency: 'usd' } })).body.id;
  proKey = (await s.grant()).licenseKey;
  liteKey = (await api.call('POST', '/developers/licenses', { key: s.apiKey, body: { productId: liteId, email: 'lite@example.com' } })).body.licenseKey;
  jwks = (await api.call('GET', `/developers/${s.id}/jwks.json`)).body;
});

/** An application of `productId` talking to the real app, or to no network at all. */
function app(productId: string | string[], options: { cacheDir?: string; offline?: boolean } = {}) {
  const net = options.offline ? fakeFetch(unreachable) : fakeFetch((call) => api.app.handle(new Request(call.url, { method: call.method, headers: call.headers, body: JSON.stringify(call.body) })));
  const client = new LicenseClient({
    baseUrl: 'http://localhost/v1', apiKey: s.publishableKey, productId, publicKeys: jwks, fetch: net.fetch, fingerprint: 'c'.repeat(64), cacheDir: options.cacheDir ?? tempDir(), now: () => api.clock.now(),
  });
  return { client, net };
}

describe('the Pro application refuses the Lite key', () => {
  test('storeLicenseKey refuses it with a TypeError and keeps the Pro key', async () => {
    const { client } = app(s.product.id);
    await client.storeLicenseKey(proKey);

    const error = await client.storeLicenseKey(liteKey).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TypeError);
    expect(String(error)).toContain(liteId);
    expect(await client.getCachedLicenseKey()).toBe(proKey);
  });

  test('offline: a Lite key in the cache (stored by the Lite edition sharing the folder) is not_found, without asking anyone', async () => {
    const cacheDir = tempDir();
    await app(liteId, { cacheDir }).client.storeLicenseKey(liteKey);
    const { client, net } = app(s.product.id, { cacheDir });

    expect(await client.check()).toEqual({ valid: false, reason: 'not_found', offlineVerified: false });
    expect(net.calls).toHaveLength(0);
  });

  test('online: every call names the application’s products, and the service holds the Lite key to them (404 on activate)', async () => {
    const cacheDir = tempDir();
    await app(liteId, { cacheDir }).client.storeLicenseKey(liteKey);
    const { client, net } = app(s.product.id, { cacheDir });

    const error = await client.activate({ name: 'pro-box' }).catch((e: unknown) => e);

    expect(net.calls[0]!.body).toMatchObject({ licenseKey: liteKey, productId: s.product.id });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
  });

  test('the Pro key validates online in the Pro application, and so does each edition in an application listing both', async () => {
    const pro = app(s.product.id);
    await pro.client.storeLicenseKey(proKey);
    const both = app([s.product.id, liteId]);
    await both.client.storeLicenseKey(liteKey);

    expect(await pro.client.check()).toMatchObject({ valid: true, offlineVerified: false });
    expect(await both.client.check()).toMatchObject({ valid: true, offlineVerified: false });
    expect(pro.net.calls[0]!.body).toMatchObject({ productId: s.product.id });
    expect(both.net.calls[0]!.body).toMatchObject({ productId: [s.product.id, liteId] });
  });
});

describe('what the constructor refuses', () => {
  const seller1 = sellerKey();
  const base = { baseUrl: 'http://licensing.test/v1', publicKeys: seller1.jwks, cacheDir: '/nonexistent' };

  test('a secret key (sk_…): it must never ship inside an application', () => {
    const make = () => new LicenseClient({ ...base, apiKey: 'sk_live123', productId: 'prod_1' });

    expect(make).toThrow(TypeError);
    expect(make).toThrow(/secret key.*pk_/s);
  });

  test('no productId, or one that is no product id, or more than 20', () => {
    for (const productId of [undefined, '', 'pro', [], Array.from({ length: 21 }, (_, i) => `prod_${i}`), ['prod_1', 42]]) {
      expect(() => new LicenseClient({ ...base, apiKey: 'pk_x', productId: productId as never })).toThrow(/productId/);
    }
  });

  test('a publishable key and a product, or a list of editions, are taken', () => {
    expect(newClient({ publicKeys: seller1.jwks, cacheDir: tempDir(), productId: ['prod_1', 'prod_2'] })).toBeInstanceOf(LicenseClient);
  });
});

describe('signup names the secret key for what it is', () => {
  test('secretKey is the sk_ key, and apiKey (its earlier name) is the same key', async () => {
    const signup = await api.call('POST', '/developers/signup', { body: { email: `scope-${crypto.randomUUID()}@example.com`, name: 'Acme' } });

    expect(signup.body.secretKey).toMatch(/^sk_/);
    expect(signup.body.apiKey).toBe(signup.body.secretKey);
    expect(signup.body.publishableKey).toMatch(/^pk_/);
  });
});
