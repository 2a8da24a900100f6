import { describe, expect, test } from 'bun:test';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { expectError } from './fixtures.ts';

const PRODUCT_KEYS = ['active', 'createdAt', 'currency', 'deactivationsPer30Days', 'features', 'graceDays', 'id', 'interval', 'leaseSeconds', 'licenseDays', 'maxBorrowHours', 'maxLeases', 'maxMachines', 'name', 'price', 'trialDays', 'updatedAt'];

/** Exactly the contract's product fields, with their types. */
function expectProduct(p: Record<string, unknown>) {
  expect(Object.keys(p).sort()).toEqual(PRODUCT_KEYS);
  expect(p).toMatchObject({
    id: expect.stringMatching(/^prod_/), name: expect.any(String), price: expect.any(Number), currency: expect.stringMatching(/^[a-z]{3}$/),
    features: expect.any(Array), active: expect.any(Boolean), createdAt: expect.any(Number), updatedAt: expect.any(Number),
  });
  expect(p.licenseDays === null || Number.isInteger(p.licenseDays)).toBe(true);
  expect([null, 'month', 'year']).toContain(p.interval as string | null);
  expect(Number.isInteger(p.graceDays)).toBe(true);
  expect(p.trialDays === null || Number.isInteger(p.trialDays)).toBe(true);
}

async function productsOf(api: TestApi, key: string, count: number) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    api.clock.advance(1); // distinct creation times, so "oldest first" is a visible order
    const r = await api.call('POST', '/developers/products', { key, body: { name: `P${i}`, price: 100 + i, currency: 'usd' } });
    ids.push(r.body.id);
  }
  return ids;
}

describe('POST /developers/products', () => {
  test('creates a product: 201 with every field of the contract', async () => {
    const api = testApi();
    const s = await seller(api);
    const reply = await api.call('POST', '/developers/products', {
      key: s.apiKey,
      body: { name: 'Team', price: 4999, currency: 'eur', features: ['pro', 'team'], licenseDays: 365 },
    });
    expect(reply.status).toBe(201);
    expectProduct(reply.body);
    expect(reply.body).toEqual({
      id: reply.body.id,
      name: 'Team', price: 4999, currency: 'eur', features: ['pro', 'team'], licenseDays: 365, maxMachines: 1, deactivationsPer30Days: 3, interval: null, graceDays: 3, trialDays: null, maxLeases: null, leaseSeconds: 600, maxBorrowHours: 0, active: true,
      createdAt: api.clock.now(), updatedAt: api.clock.now(),
    });
  });

  test('features default to none and licenseDays to null (perpetual)', async () => {
    const api = testApi();
    const s = await seller(api);
    const reply = await api.call('POST', '/developers/products', { key: s.apiKey, body: { name: 'Free', price: 0, currency: 'usd' } });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ features: [], licenseDays: null, price: 0 });
  });

  test('the developer id is not exposed', async () => {
    const api = testApi();
    const s = await seller(api);
    expectProduct(s.product);
    expect(JSON.stringify(s.product)).not.toContain(s.id);
  });
});

describe('GET /developers/products', () => {
  test('lists the developer’s products oldest first as {data, hasMore}', async () => {
    const api = testApi();
    const s = await seller(api);
    const ids = await productsOf(api, s.apiKey, 2);
    const reply = await api.call('GET', '/developers/products', { key: s.apiKey });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ data: expect.any(Array), hasMore: false });
    expect(reply.body.data.map((p: { id: string }) => p.id)).toEqual([s.product.id, ...ids]);
    for (const p of reply.body.data) expectProduct(p);
  });

  test('pages with limit and startingAfter until hasMore is false', async () => {
    const api = testApi();
    const s = await seller(api);
    const all = [s.product.id, ...(await productsOf(api, s.apiKey, 4))];
    const seen: string[] = [];
    let cursor: string | undefined;
    const pages: boolean[] = [];
    do {
      const query = `?limit=2${cursor ? `&startingAfter=${cursor}` : ''}`;
      const page = await api.call('GET', `/developers/products${query}`, { key: s.apiKey });
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((p: { id: string }) => p.id));
      pages.push(page.body.hasMore);
      cursor = page.body.data.at(-1)?.id;
    } while (pages.at(-1));
    expect(seen).toEqual(all);
    expect(pages).toEqual([true, true, false]);
  });

  test('only lists the caller’s own products', async () => {
    const api = testApi();
    const a = await seller(api);
    const b = await seller(api);
    const list = await api.call('GET', '/developers/products', { key: b.apiKey });
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([b.product.id]);
    expect(list.body.data.map((p: { id: string }) => p.id)).not.toContain(a.product.id);
  });

  test('an unknown startingAfter is 400 invalid_request', async () => {
    const api = testApi();
    const s = await seller(api);
    expectError(await api.call('GET', '/developers/products?startingAfter=prod_nope', { key: s.apiKey }), 400, 'invalid_request');
  });

  test('another developer’s product id as startingAfter is 400, not a peek into their list', async () => {
    const api = testApi();
    const a = await seller(api);
    const b = await seller(api);
    expectError(await api.call('GET', `/developers/products?startingAfter=${a.product.id}`, { key: b.apiKey }), 400, 'invalid_request');
  });

  test('limit outside 1..100 or not an integer is 400 invalid_request', async () => {
    const api = testApi();
    const s = await seller(api);
    for (const limit of ['abc', '0', '-1', '1.5', '101', '1000']) {
      expectError(await api.call('GET', `/developers/products?limit=${limit}`, { key: s.apiKey }), 400, 'invalid_request');
    }
  });
});

describe('PATCH /developers/products/:id', () => {
  test('updates the given fields, keeps the others, moves updatedAt', async () => {
    const api = testApi();
    const s = await seller(api);
    api.clock.advance(5_000);
    const reply = await api.call('PATCH', `/developers/products/${s.product.id}`, {
      key: s.apiKey,
      body: { name: 'Pro Max', price: 2999, features: ['pro', 'max'], licenseDays: 30, active: false },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      ...s.product, name: 'Pro Max', price: 2999, features: ['pro', 'max'], licenseDays: 30, active: false, updatedAt: api.clock.now(),
    });
    const listed = await api.call('GET', '/developers/products', { key: s.apiKey });
    expect(listed.body.data[0]).toEqual(reply.body);
  });

  test('licenseDays: null makes future licenses perpetual again', async () => {
    const api = testApi();
    const s = await seller(api);
    await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { licenseDays: 10 } });
    const reply = await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { licenseDays: null } });
    expect(reply.body.licenseDays).toBeNull();
    expect((await s.grant()).license.expiresAt).toBeNull();
  });

  test('issued licenses keep their terms: a license granted before a features change keeps its features', async () => {
    const api = testApi();
    const s = await seller(api);
    const before = await s.grant();
    await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { features: ['basic'], licenseDays: 1 } });
    const after = await s.grant();
    const old = await api.call('GET', `/licenses/${before.license.id}`, { key: s.apiKey });
    expect(old.body).toMatchObject({ features: ['pro'], expiresAt: null });
    const validated = await api.call('POST', '/licenses/validate', { key: s.apiKey, body: { licenseKey: before.licenseKey, machineFingerprint: 'm' } });
    expect(validated.body.license).toMatchObject({ features: ['pro'], expiresAt: null });
    expect(after.license).toMatchObject({ features: ['basic'], expiresAt: api.clock.now() + 86_400_000 });
  });

  test('an unknown product is 404 not_found', async () => {
    const api = testApi();
    const s = await seller(api);
    expectError(await api.call('PATCH', '/developers/products/prod_nope', { key: s.apiKey, body: { name: 'X' } }), 404, 'not_found');
  });

  test('another developer’s product is 404 and stays unchanged', async () => {
    const api = testApi();
    const a = await seller(api);
    const b = await seller(api);
    expectError(await api.call('PATCH', `/developers/products/${a.product.id}`, { key: b.apiKey, body: { name: 'Hijacked' } }), 404, 'not_found');
    const list = await api.call('GET', '/developers/products', { key: a.apiKey });
    expect(list.body.data[0].name).toBe('Pro');
  });

  test('a blank name or an invalid value is 400 and changes nothing', async () => {
    const api = testApi();
    const s = await seller(api);
    for (const body of [{ name: '  ' }, { price: -1 }, { currency: 'US' }, { licenseDays: 0 }, { active: 'yes' }]) {
      expectError(await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body }), 400, 'invalid_request');
    }
    const list = await api.call('GET', '/developers/products', { key: s.apiKey });
    expect(list.body.data[0]).toEqual(s.product);
  });
});
