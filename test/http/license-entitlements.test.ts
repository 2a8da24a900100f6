import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createLocalJWKSet, flattenedVerify } from 'jose';
import { openPostgresTestStore, type TestStore } from '../contracts/stores.ts';
import { depsFor } from '../support/deps.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { verifiedClaims } from '../renewals/support.ts';
import { trialShop } from '../trials/trial-shop.ts';
import { expectError, expectHandled } from './fixtures.ts';

type Seller = Awaited<ReturnType<typeof seller>>;

/** A seller whose product holds ['pro', 'Export'], and one license granted with ['beta']. */
async function entitled(api: TestApi = testApi()) {
  const s = await seller(api);
  await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { features: ['pro', 'Export'] } });
  const granted = await s.grant({ features: ['beta'] });
  return { api, s, license: granted.license as { id: string; features: string[] }, licenseKey: granted.licenseKey };
}

const put = (api: TestApi, s: Seller, id: string, body: unknown) => api.call('PUT', `/licenses/${id}/entitlements`, { key: s.apiKey, body });
const updates = async (api: TestApi, s: Seller, licenseId: string) =>
  (await api.deps.outbox.listEvents(s.id, { limit: 100 }))!.data.filter((e) => e.type === 'license.updated' && (e.data as any).license.id === licenseId);
const validate = (api: TestApi, s: Seller, body: Record<string, unknown>) =>
  api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { machineFingerprint: 'machine-a', ...body } });

describe('a product’s entitlements', () => {
  test('case-insensitively distinct, the first spelling kept, on create and on change; a control character is 400 naming the field', async () => {
    const api = testApi();
    const s = await seller(api);
    const created = await api.call('POST', '/developers/products', { key: s.apiKey, body: { name: 'Suite', price: 100, currency: 'usd', features: ['Pro', 'pro', 'export', 'PRO'] } });
    expect(created.body.features).toEqual(['Pro', 'export']);
    const changed = await api.call('PATCH', `/developers/products/${created.body.id}`, { key: s.apiKey, body: { features: ['sync', 'SYNC', 'Export'] } });
    expect(changed.body.features).toEqual(['sync', 'Export']);
    const bad = await api.call('PATCH', `/developers/products/${created.body.id}`, { key: s.apiKey, body: { features: ['tab\there'] } });
    expectError(bad, 400, 'invalid_request');
    expect(bad.body.error.details.issues[0].field).toBe('features.0');
  });
});

describe('POST /developers/licenses: the product’s entitlements plus the given ones', () => {
  test('the license and its key hold the union, case-insensitively, the product’s spelling first', async () => {
    const api = testApi();
    const { s } = await entitled(api);
    const { license, licenseKey } = await s.grant({ features: ['PRO', 'sync', 'export', 'Sync'] });

    expect(license.features).toEqual(['pro', 'Export', 'sync']);
    expect((await verifiedClaims(api, s.id, licenseKey)).claims.features).toEqual(['pro', 'Export', 'sync']);
  });

  test('no features given: the product’s set', async () => {
    const { s } = await entitled();
    expect((await s.grant()).license.features).toEqual(['pro', 'Export']);
  });

  test('a NUL byte: 400; another control character or more than 100 codes: 400 naming features', async () => {
    const { api, s } = await entitled();
    const grant = (features: unknown) => api.call('POST', '/developers/licenses', { key: s.apiKey, body: { productId: s.product.id, email: 'b@example.com', features } });
    expectError(await grant(['ok', 'bad\u0000']), 400, 'invalid_request');
    for (const [features, field] of [[['ok', 'bell\u0007'], 'features.1'], [Array.from({ length: 101 }, (_, i) => `f${i}`), 'features']] as const) {
      const reply = await grant(features);
      expectError(reply, 400, 'invalid_request');
      expect(reply.body.error.details.issues[0]).toEqual({ field, problem: expect.stringContaining('control characters') });
    }
  });

  test('a union past 100 codes: 400 naming features', async () => {
    const { api, s } = await entitled();
    const features = Array.from({ length: 99 }, (_, i) => `f${i}`);
    const reply = await api.call('POST', '/developers/licenses', { key: s.apiKey, body: { productId: s.product.id, email: 'b@example.com', features } });
    expectError(reply, 400, 'invalid_request');
    expect(reply.body.error.details.issues[0].field).toBe('features');
  });
});

describe('PUT /licenses/:id/entitlements', () => {
  test('sets the license’s own entitlements: the product’s current set plus these, under a new key, one license.updated', async () => {
    const { api, s, license, licenseKey } = await entitled();

    const reply = await put(api, s, license.id, { entitlements: ['sync', 'SYNC', 'pro'] });

    expect(reply.status).toBe(200);
    expect(reply.body.license).toMatchObject({ id: license.id, features: ['pro', 'Export', 'sync'], status: 'active' });
    expect(reply.body.licenseKey).not.toBe(licenseKey);
    const { claims } = await verifiedClaims(api, s.id, reply.body.licenseKey);
    expect(claims).toMatchObject({ id: license.id, features: ['pro', 'Export', 'sync'] });
    expect((await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey })).body).toMatchObject({ features: ['pro', 'Export', 'sync'], licenseKey: reply.body.licenseKey });
    const events = await updates(api, s, license.id);
    expect(events).toHaveLength(1);
    expect((events[0]!.data as any).license.features).toEqual(['pro', 'Export', 'sync']);
  });

  test('the replaced key still validates and hands the current key over, with the current entitlements', async () => {
    const { api, s, license, licenseKey } = await entitled();
    const changed = (await put(api, s, license.id, { entitlements: ['sync'] })).body;

    const old = await validate(api, s, { licenseKey });

    expect(old.body).toEqual({ valid: true, license: { id: license.id, status: 'active', features: ['pro', 'Export', 'sync'], expiresAt: null, licenseKey: changed.licenseKey } });
    expect((await validate(api, s, { licenseKey: changed.licenseKey })).body).toEqual({ valid: true, license: { id: license.id, status: 'active', features: ['pro', 'Export', 'sync'], expiresAt: null } });
  });

  test('the same set again, in another order or spelling: the same key, no event', async () => {
    const { api, s, license } = await entitled();
    const first = (await put(api, s, license.id, { entitlements: ['sync'] })).body;

    const again = await put(api, s, license.id, { entitlements: ['SYNC', 'export'] });

    expect(again.status).toBe(200);
    expect(again.body.licenseKey).toBe(first.licenseKey);
    expect(await updates(api, s, license.id)).toHaveLength(1);
  });

  test('[] leaves the product’s set; a product changed since the grant counts as it is now, issued licenses keep theirs until changed', async () => {
    const { api, s, license } = await entitled();
    await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { features: ['pro', 'cloud'] } });
    expect((await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey })).body.features).toEqual(['pro', 'Export', 'beta']);

    const reply = await put(api, s, license.id, { entitlements: [] });

    expect(reply.body.license.features).toEqual(['pro', 'cloud']);
  });

  test('another seller’s license and a forged id: 404; a revoked license: 409 and no new key', async () => {
    const { api, s, license } = await entitled();
    const other = await seller(api);
    expectError(await put(api, other, license.id, { entitlements: ['sync'] }), 404, 'not_found');
    for (const id of ['lic_nope', 'lic_' + 'x'.repeat(90), encodeURIComponent('../x'), encodeURIComponent("' OR 1=1 --")]) expectError(await put(api, s, id, { entitlements: [] }), 404, 'not_found');
    for (const id of ['x'.repeat(101), '%00']) expectError(await put(api, s, id, { entitlements: [] }), 400, 'invalid_request');

    await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });
    const before = (await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey })).body.licenseKey;
    expectError(await put(api, s, license.id, { entitlements: ['sync'] }), 409, 'conflict');
    expect((await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey })).body.licenseKey).toBe(before);
  });

  test('a free trial: 409, its key unchanged (a trial holds its product’s set until it is bought)', async () => {
    const shop = await trialShop();
    const started = await shop.start();
    expect(started.status).toBe(201);
    const { license, licenseKey } = started.body;

    expectError(await put(shop.api, shop.s, license.id, { entitlements: ['sync'] }), 409, 'conflict');
    expect((await shop.api.call('GET', `/licenses/${license.id}`, { key: shop.s.apiKey })).body.licenseKey).toBe(licenseKey);
  });

  test('bad bodies: JSON errors naming the field, never a 500', async () => {
    const { api, s, license } = await entitled();
    expectError(await put(api, s, license.id, { entitlements: ['ok', 'x\u0000y'] }), 400, 'invalid_request');
    const control = await put(api, s, license.id, { entitlements: ['ok', 'x\u001by'] });
    expectError(control, 400, 'invalid_request');
    expect(control.body.error.details.issues[0].field).toBe('entitlements.1');
    const many = await put(api, s, license.id, { entitlements: Array.from({ length: 101 }, (_, i) => `f${i}`) });
    expectError(many, 400, 'invalid_request');
    expect(many.body.error.details.issues[0].field).toBe('entitlements');
    expectError(await put(api, s, license.id, { entitlements: Array.from({ length: 99 }, (_, i) => `f${i}`) }), 400, 'invalid_request');
    for (const body of [{}, { entitlements: 'pro' }, { entitlements: [1] }, { entitlements: [''] }, { entitlements: ['x'.repeat(101)] }, null]) {
      expectError(await put(api, s, license.id, body), 400);
    }
    expectError(await api.call('PUT', `/licenses/${license.id}/entitlements`, { key: s.apiKey, rawBody: '{"entitlements": [' }), 400);
    expectError(await api.call('PUT', `/licenses/${license.id}/entitlements`, { key: s.publishableKey, body: { entitlements: [] } }), 403);
    expectError(await api.call('PUT', `/licenses/${license.id}/entitlements`, { body: { entitlements: [] } }), 401);
  });
});

describe('POST /licenses/validate with scope.entitlements', () => {
  test('held (case-insensitively): valid; lacking any: valid=false, not_found, the missing codes as asked, signed, nothing bound', async () => {
    const { api, s, license, licenseKey } = await entitled();

    const lacking = await api.app.handle(
      new Request('http://localhost/v1/licenses/validate', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': s.publishableKey, 'licensing-nonce': 'n0nce_0123456789abcdef' },
        body: JSON.stringify({ licenseKey, machineFingerprint: 'machine-a', scope: { entitlements: ['PRO', 'Sync', 'cloud', 'sync'] } }),
      }),
    );
    const text = await lacking.text();
    expect(JSON.parse(text)).toEqual({ valid: false, reason: 'not_found', missingEntitlements: ['Sync', 'cloud'] });
    const [protectedHeader, , signature] = lacking.headers.get('licensing-signature')!.split('.');
    const jwks = (await api.call('GET', `/developers/${s.id}/jwks.json`)).body;
    await flattenedVerify({ protected: protectedHeader!, payload: Buffer.from(text).toString('base64url'), signature: signature! }, createLocalJWKSet(jwks));
    expect(await api.deps.licenses.listActivations(license.id)).toEqual([]);

    const held = await validate(api, s, { licenseKey, scope: { entitlements: ['EXPORT', 'beta'] } });
    expect(held.body).toMatchObject({ valid: true, license: { id: license.id, features: ['pro', 'Export', 'beta'] } });
    expect(await api.deps.licenses.listActivations(license.id)).toHaveLength(1);
  });

  test('a revoked license stays revoked whatever is asked; an empty or absent list asks nothing', async () => {
    const { api, s, license, licenseKey } = await entitled();
    expect((await validate(api, s, { licenseKey, scope: {} })).body.valid).toBe(true);
    expect((await validate(api, s, { licenseKey, scope: { entitlements: [] } })).body.valid).toBe(true);
    await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });
    expect((await validate(api, s, { licenseKey, scope: { entitlements: ['cloud'] } })).body).toEqual({ valid: false, reason: 'revoked' });
  });

  test('an entitlement granted later is held at once, through the replaced key too', async () => {
    const { api, s, license, licenseKey } = await entitled();
    expect((await validate(api, s, { licenseKey, scope: { entitlements: ['sync'] } })).body.missingEntitlements).toEqual(['sync']);
    await put(api, s, license.id, { entitlements: ['sync'] });
    expect((await validate(api, s, { licenseKey, scope: { entitlements: ['sync'] } })).body).toMatchObject({ valid: true });
  });

  test('bad scopes: 400 naming the field', async () => {
    const { api, s, licenseKey } = await entitled();
    expectError(await validate(api, s, { licenseKey, scope: { entitlements: ['a\u0000'] } }), 400, 'invalid_request');
    for (const [scope, field] of [
      [{ entitlements: ['a\u0085'] }, 'scope.entitlements.0'],
      [{ entitlements: Array.from({ length: 101 }, (_, i) => `f${i}`) }, 'scope.entitlements'],
      [{ entitlements: 'pro' }, 'scope.entitlements'],
      ['pro', 'scope'],
    ] as const) {
      const reply = await validate(api, s, { licenseKey, scope });
      expectError(reply, 400, 'invalid_request');
      expect(reply.body.error.details.issues[0].field).toBe(field);
    }
  });
});

describe('POST /licenses/activate with scope.entitlements', () => {
  test('lacking one: 404 not_found with the missing codes, no machine taken; held: 201', async () => {
    const { api, s, license, licenseKey } = await entitled();
    const body = { licenseKey, machineFingerprint: 'machine-a' };

    const lacking = await api.call('POST', '/licenses/activate', { key: s.publishableKey, body: { ...body, scope: { entitlements: ['pro', 'cloud'] } } });
    expectError(lacking, 404, 'not_found');
    expect(lacking.body.error.details).toEqual({ missingEntitlements: ['cloud'] });
    expect(await api.deps.licenses.listActivations(license.id)).toEqual([]);

    expect((await api.call('POST', '/licenses/activate', { key: s.publishableKey, body: { ...body, scope: { entitlements: ['Pro'] } } })).status).toBe(201);
  });
});

describe('PUT /licenses/:id/entitlements on PostgreSQL', () => {
  let store: TestStore;
  let api: TestApi;
  beforeAll(async () => {
    store = await openPostgresTestStore();
    api = testApi({ deps: depsFor(store.store) });
  });
  afterAll(async () => store.dispose());

  test('20 concurrent changes: each answered 200 or a JSON error, one consistent license, one event per change that won', async () => {
    const { s, license } = await entitled(api);
    const sets = Array.from({ length: 20 }, (_, i) => [`e${i}`, 'shared']);

    const replies = await Promise.all(sets.map((entitlements) => put(api, s, license.id, { entitlements })));

    for (const reply of replies) expectHandled(reply);
    expect(replies.filter((r) => r.status === 200).length).toBe(20);
    const final = (await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey })).body;
    const { claims } = await verifiedClaims(api, s.id, final.licenseKey);
    expect(claims.features).toEqual(final.features);
    expect(sets.map((set) => JSON.stringify(['pro', 'Export', ...set]))).toContain(JSON.stringify(final.features));
    expect((await validate(api, s, { licenseKey: final.licenseKey })).body).toEqual({ valid: true, license: { id: license.id, status: 'active', features: final.features, expiresAt: null } });
    const events = await updates(api, s, license.id);
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events.length).toBeLessThanOrEqual(20);
    expect((events[0]!.data as any).license.features).toEqual(final.features);
  });
});
