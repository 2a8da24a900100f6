import { describe, expect, test } from 'bun:test';
import { TEST_ISSUER } from '../support/deps.ts';
import { seller, testApi } from '../support/http.ts';
import { decodeKey, expectError } from './fixtures.ts';

const DAY = 86_400_000;

async function termProduct(licenseDays: number | null, features = ['pro', 'team']) {
  const api = testApi();
  const s = await seller(api);
  const product = await api.call('POST', '/developers/products', { key: s.apiKey, body: { name: 'Term', price: 900, currency: 'usd', features, licenseDays } });
  const grant = (body: Record<string, unknown> = {}) =>
    api.call('POST', '/developers/licenses', { key: s.apiKey, body: { productId: product.body.id, email: 'buyer@example.com', ...body } });
  return { api, s, product: product.body, grant };
}

describe('POST /developers/licenses', () => {
  test('grants a license: 201 {license, licenseKey} with the product’s terms by default', async () => {
    const { api, product, grant } = await termProduct(null);
    const reply = await grant();
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      license: {
        id: expect.stringMatching(/^lic_/),
        productId: product.id,
        customerId: expect.stringMatching(/^cus_/),
        status: 'active',
        features: ['pro', 'team'],
        issuedAt: api.clock.now(),
        expiresAt: null,
        machineFingerprint: null,
      },
      licenseKey: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
    });
  });

  test('a product with licenseDays gives expiresAt = issuedAt + licenseDays days', async () => {
    const { grant } = await termProduct(30);
    const { license } = (await grant()).body;
    expect(license.expiresAt).toBe(license.issuedAt + 30 * DAY);
  });

  test('explicit features are added to the product’s; an explicit expiresAt overrides its term', async () => {
    const { api, grant } = await termProduct(30);
    const expiresAt = api.clock.now() + 7 * DAY;
    const { license } = (await grant({ features: ['beta', 'PRO'], expiresAt })).body;
    expect(license).toMatchObject({ features: ['pro', 'team', 'beta'], expiresAt });
  });

  test('explicit expiresAt: null makes a perpetual license even for a term product', async () => {
    const { grant } = await termProduct(30);
    expect((await grant({ expiresAt: null })).body.license.expiresAt).toBeNull();
  });

  test('explicit empty features give the product’s entitlements alone', async () => {
    const { grant } = await termProduct(null);
    expect((await grant({ features: [] })).body.license.features).toEqual(['pro', 'team']);
  });

  test('the license key is an EdDSA JWS whose claims are the license’s', async () => {
    const { s, grant } = await termProduct(30);
    const { license, licenseKey } = (await grant()).body;
    const { header, claims } = decodeKey(licenseKey);
    expect(header).toMatchObject({ alg: 'EdDSA', kid: expect.any(String) });
    expect(claims).toEqual({
      iss: TEST_ISSUER, sub: s.id, id: license.id, productId: license.productId, features: license.features, issuedAt: license.issuedAt, expiresAt: license.expiresAt,
    });
  });

  test('the same buyer e-mail is the same customer', async () => {
    const { grant } = await termProduct(null);
    const a = (await grant({ email: 'Buyer@Example.com' })).body.license;
    const b = (await grant({ email: 'buyer@example.com' })).body.license;
    expect(a.customerId).toBe(b.customerId);
    expect(a.id).not.toBe(b.id);
  });

  test('the license can be read back with GET /licenses/:id', async () => {
    const { api, s, grant } = await termProduct(null);
    const { license, licenseKey } = (await grant()).body;
    const read = await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ ...license, licenseKey });
  });

  test('expiresAt in the past is 400 invalid_request', async () => {
    const { api, grant } = await termProduct(null);
    const reply = await grant({ expiresAt: api.clock.now() - 1 });
    expectError(reply, 400, 'invalid_request');
    expect(JSON.stringify(reply.body.error.details)).toContain('expiresAt');
  });

  test('expiresAt equal to now is 400: the license would be born expired', async () => {
    const { api, grant } = await termProduct(null);
    expectError(await grant({ expiresAt: api.clock.now() }), 400, 'invalid_request');
  });

  test('expiresAt beyond a safe integer is 400: the key would not parse as a license key', async () => {
    const { grant } = await termProduct(null);
    expectError(await grant({ expiresAt: 2 ** 60 }), 400, 'invalid_request');
    expectError(await grant({ expiresAt: 1e300 }), 400, 'invalid_request');
  });

  test('an unknown product is 404 not_found', async () => {
    const { grant } = await termProduct(null);
    expectError(await grant({ productId: 'prod_nope' }), 404, 'not_found');
  });

  test('another developer’s product is 404 not_found', async () => {
    const { api, product } = await termProduct(null);
    const other = await seller(api);
    const reply = await api.call('POST', '/developers/licenses', { key: other.apiKey, body: { productId: product.id, email: 'b@example.com' } });
    expectError(reply, 404, 'not_found');
  });

  test('an invalid buyer e-mail is 400 invalid_request', async () => {
    const { grant } = await termProduct(null);
    expectError(await grant({ email: 'nobody' }), 400, 'invalid_request');
  });

  test('empty or over-long feature names are 400 invalid_request', async () => {
    const { grant } = await termProduct(null);
    expectError(await grant({ features: [''] }), 400, 'invalid_request');
    expectError(await grant({ features: ['x'.repeat(101)] }), 400, 'invalid_request');
    expectError(await grant({ features: Array.from({ length: 101 }, (_, i) => `f${i}`) }), 400, 'invalid_request');
  });
});
