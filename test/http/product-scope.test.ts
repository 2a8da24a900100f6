import { beforeAll, describe, expect, test } from 'bun:test';
import type { RateLimiter } from '../../src/ports/rate-limiter.ts';
import { sqliteDeps, testSettings } from '../support/deps.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { signAsDeveloper } from './fixtures.ts';

/**
 * One seller with two products, Pro and Lite, and a license of each: the Pro application names Pro
 * (or its editions), and the Lite key must open nothing there, exactly as an unknown key does.
 */
let api: TestApi;
let s: Awaited<ReturnType<typeof seller>>;
let pro: { id: string; key: string };
let lite: { id: string; key: string; productId: string };
let unknownKey: string;
/** Every rate-limit key a validation or holder call counted against. */
const counted: string[] = [];

beforeAll(async () => {
  const { deps } = sqliteDeps();
  const limiter = deps.rateLimiter;
  const rateLimiter: RateLimiter = { hit: (key, limit, windowMs) => (key.startsWith('validate:') && counted.push(key), limiter.hit(key, limit, windowMs)) };
  api = testApi({ deps: { ...deps, rateLimiter, settings: testSettings({ trustedProxyHeader: 'x-forwarded-for' }) } });
  s = await seller(api);
  const liteProduct = await api.call('POST', '/developers/products', { key: s.apiKey, body: { name: 'Lite', price: 0, currency: 'usd', maxMachines: 1 } });
  const proGrant = await s.grant();
  const liteGrant = await api.call('POST', '/developers/licenses', { key: s.apiKey, body: { productId: liteProduct.body.id, email: 'lite@example.com' } });
  pro = { id: proGrant.license.id, key: proGrant.licenseKey };
  lite = { id: liteGrant.body.license.id, key: liteGrant.body.licenseKey, productId: liteProduct.body.id };
  // Genuine, of this seller's product, naming a license that does not exist: the unknown key answered not_found.
  unknownKey = await signAsDeveloper(api, s.id, { id: 'lic_NoSuchLicense000000000', productId: s.product.id });
});

const post = (path: string, body: Record<string, unknown>, nonce = 'n'.repeat(24)) =>
  api.call('POST', path, { key: s.publishableKey, headers: { 'x-forwarded-for': '198.51.100.7', 'licensing-nonce': nonce }, body });

const decodeHeader = (signature: string | null) => JSON.parse(Buffer.from(signature!.split('.')[0]!, 'base64url').toString());

describe('POST /licenses/validate with productId', () => {
  test('the application’s own product is valid, named alone or in a list of its editions', async () => {
    const alone = await post('/licenses/validate', { licenseKey: pro.key, machineFingerprint: 'pro-box', productId: s.product.id });
    const listed = await post('/licenses/validate', { licenseKey: pro.key, machineFingerprint: 'pro-box', productId: [lite.productId, s.product.id] });

    expect(alone.body).toMatchObject({ valid: true, license: { id: pro.id } });
    expect(listed.body).toMatchObject({ valid: true, license: { id: pro.id } });
  });

  test('the Lite key in the Pro application is not_found, signed, byte for byte an unknown key’s answer; nothing bound, counted per address', async () => {
    counted.length = 0;
    const other = await post('/licenses/validate', { licenseKey: lite.key, machineFingerprint: 'pro-box', productId: s.product.id });
    const unknown = await post('/licenses/validate', { licenseKey: unknownKey, machineFingerprint: 'pro-box', productId: s.product.id });
    const machines = await api.call('GET', `/licenses/${lite.id}/activations`, { key: s.apiKey });

    expect(other.status).toBe(200);
    expect(other.body).toEqual({ valid: false, reason: 'not_found' });
    expect(JSON.stringify(other.body)).toBe(JSON.stringify(unknown.body));
    const { serverTime: _a, ...otherHeader } = decodeHeader(other.headers.get('licensing-signature'));
    const { serverTime: _b, ...unknownHeader } = decodeHeader(unknown.headers.get('licensing-signature'));
    expect(otherHeader).toEqual(unknownHeader);
    expect(machines.body.data).toEqual([]);
    expect(counted).toEqual(['validate:address:198.51.100.7', 'validate:address:198.51.100.7']);
  });

  test('without productId (an application from before it) every product of the seller validates, as before', async () => {
    const reply = await post('/licenses/validate', { licenseKey: lite.key, machineFingerprint: 'old-app' });

    expect(reply.body).toMatchObject({ valid: true, license: { id: lite.id } });
  });
});

describe('the holder’s activation calls with productId', () => {
  test('activate, deactivate and the machine list of the Lite key in the Pro application: 404 not_found, exactly as an unknown key; no slot taken', async () => {
    const fresh = 'f'.repeat(64);
    const calls = [
      ['/licenses/activate', { licenseKey: lite.key, machineFingerprint: fresh }],
      ['/licenses/deactivate', { licenseKey: lite.key, machineFingerprint: 'old-app' }],
      ['/licenses/activations', { licenseKey: lite.key }],
    ] as const;
    for (const [path, body] of calls) {
      const other = await post(path, { ...body, productId: s.product.id });
      const unknown = await post(path, { ...body, licenseKey: unknownKey, productId: s.product.id });

      expect([path, other.status, other.body]).toEqual([path, 404, unknown.body]);
    }
    const machines = await api.call('GET', `/licenses/${lite.id}/activations`, { key: s.apiKey });
    expect(machines.body.data.map((a: { machineFingerprint: string }) => a.machineFingerprint)).toEqual(['old-app']);
  });

  test('the application’s own product activates (this machine already holds its slot)', async () => {
    const reply = await post('/licenses/activate', { licenseKey: pro.key, machineFingerprint: 'pro-box', productId: [s.product.id] });

    expect(reply.status).toBe(200);
    expect(reply.body.activation).toMatchObject({ machineFingerprint: 'pro-box' });
  });
});

describe('a productId that is no product id is a clear 400', () => {
  const refused: [string, unknown][] = [
    ['not an id', 'pro'],
    ['an empty list', []],
    ['a number', 42],
    ['an id of 101 characters', `prod_${'a'.repeat(96)}`],
    ['21 ids', Array.from({ length: 21 }, (_, i) => `prod_${i}`)],
    ['a list holding a non-id', ['prod_1', 'lite']],
  ];
  for (const [what, productId] of refused) {
    test(what, async () => {
      const reply = await post('/licenses/validate', { licenseKey: pro.key, machineFingerprint: 'pro-box', productId });

      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({ code: 'invalid_request', details: { issues: [{ field: 'productId', problem: expect.stringContaining('prod_') }] } });
    });
  }
});
