import { describe, expect, test } from 'bun:test';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { expectError } from './fixtures.ts';

const list = (api: TestApi, key: string | undefined, query = '') => api.call('GET', `/developers/licenses${query}`, key ? { key } : {});

/** A seller who granted three licenses, one second apart: to ann (twice) and to bob. */
async function shop(api: TestApi = testApi()) {
  const s = await seller(api);
  const granted = [];
  for (const email of ['ann@example.com', 'bob@example.com', 'Ann@Example.com']) {
    granted.push((await s.grant({ email })).license);
    api.clock.advance(1000);
  }
  return { api, s, granted };
}

describe('GET /developers/licenses', () => {
  test('lists the caller’s licenses newest first, each with its customer’s e-mail', async () => {
    const { api, s, granted } = await shop();

    const reply = await list(api, s.apiKey);

    expect(reply.status).toBe(200);
    expect(reply.body.hasMore).toBe(false);
    expect(reply.body.data.map((l: { id: string }) => l.id)).toEqual(granted.map((l) => l.id).reverse());
    expect(reply.body.data[1]).toEqual({ ...granted[1], customerEmail: 'bob@example.com', trial: false, subscriptionId: null });
  });

  test('?email= finds one customer’s licenses, exact and case-insensitive', async () => {
    const { api, s, granted } = await shop();

    const ann = await list(api, s.apiKey, `?email=${encodeURIComponent(' ANN@example.com ')}`);
    const nobody = await list(api, s.apiKey, '?email=carol@example.com');

    expect(ann.body.data.map((l: { id: string }) => l.id)).toEqual([granted[2].id, granted[0].id]);
    expect(ann.body.data.every((l: { customerEmail: string }) => l.customerEmail === 'ann@example.com')).toBe(true);
    expect(nobody.body).toEqual({ data: [], hasMore: false });
  });

  test('?productId= keeps one product’s licenses', async () => {
    const { api, s, granted } = await shop();
    const other = await api.call('POST', '/developers/products', { key: s.apiKey, body: { name: 'Other', price: 100, currency: 'usd' } });
    const extra = (await s.grant({ productId: other.body.id })).license;

    const ofOther = await list(api, s.apiKey, `?productId=${other.body.id}`);
    const ofFirst = await list(api, s.apiKey, `?productId=${s.product.id}`);

    expect(ofOther.body.data.map((l: { id: string }) => l.id)).toEqual([extra.id]);
    expect(ofFirst.body.data).toHaveLength(granted.length);
  });

  test('pages with limit and startingAfter until hasMore is false', async () => {
    const { api, s, granted } = await shop();

    const first = await list(api, s.apiKey, '?limit=2');
    const second = await list(api, s.apiKey, `?limit=2&startingAfter=${first.body.data[1].id}`);

    expect(first.body.hasMore).toBe(true);
    expect(second.body.hasMore).toBe(false);
    expect([...first.body.data, ...second.body.data].map((l: { id: string }) => l.id)).toEqual(granted.map((l) => l.id).reverse());
  });

  test('another seller’s licenses are never listed; a customer of two sellers appears to each separately', async () => {
    const { api, s } = await shop();
    const other = await seller(api);
    const theirs = (await other.grant({ email: 'ann@example.com' })).license;

    const mine = await list(api, s.apiKey, '?email=ann@example.com');
    const their = await list(api, other.apiKey, '?email=ann@example.com');

    expect(mine.body.data).toHaveLength(2);
    expect(mine.body.data.map((l: { id: string }) => l.id)).not.toContain(theirs.id);
    expect(their.body.data.map((l: { id: string }) => l.id)).toEqual([theirs.id]);
  });

  test('a revoked license is listed as revoked', async () => {
    const { api, s, granted } = await shop();
    await api.call('POST', `/licenses/${granted[0].id}/revoke`, { key: s.apiKey });

    const reply = await list(api, s.apiKey);

    expect(reply.body.data.find((l: { id: string }) => l.id === granted[0].id).status).toBe('revoked');
  });
});

describe('GET /developers/licenses: who may ask', () => {
  test('no key: 401; an unknown key: 401', async () => {
    const { api } = await shop();
    expectError(await list(api, undefined), 401, 'unauthorized');
    expectError(await list(api, 'sk_nope'), 401, 'unauthorized');
  });

  test('a publishable key: 403 forbidden', async () => {
    const { api, s } = await shop();
    expectError(await list(api, s.publishableKey), 403, 'forbidden');
  });

  test('a new seller sees an empty list', async () => {
    const { api } = await shop();
    const other = await seller(api);
    expect((await list(api, other.apiKey)).body).toEqual({ data: [], hasMore: false });
  });
});

describe('GET /developers/licenses: bad input is 400 invalid_request naming the field', () => {
  test.each([['limit=0', 'limit'], ['limit=101', 'limit'], ['limit=abc', 'limit'], ['limit=1.5', 'limit'], ['startingAfter=lic_nope', 'startingAfter'], ['email=not-an-email', 'email'], [`startingAfter=${'x'.repeat(101)}`, 'startingAfter']])(
    '?%s',
    async (query, field) => {
      const { api, s } = await shop();
      const reply = await list(api, s.apiKey, `?${query}`);
      expectError(reply, 400, 'invalid_request');
      expect(JSON.stringify(reply.body.error)).toContain(field);
    },
  );

  test('another seller’s license as startingAfter is 400, as an unknown one', async () => {
    const { api, s } = await shop();
    const other = await seller(api);
    const theirs = (await other.grant()).license;
    expectError(await list(api, s.apiKey, `?startingAfter=${theirs.id}`), 400, 'invalid_request');
  });

  test('a NUL in the query is 400 (refused at the edge)', async () => {
    const { api, s } = await shop();
    expectError(await list(api, s.apiKey, '?email=a%00@example.com'), 400, 'invalid_request');
  });
});
