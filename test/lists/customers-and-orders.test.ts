import { describe, expect, test } from 'bun:test';
import { seller, testApi } from '../support/http.ts';
import { get, givenOrder, ids, twoShops } from './support.ts';

describe('GET /developers/customers', () => {
  test('a customer of two sellers appears to each, with only that seller’s licenses', async () => {
    const { api, a, b, annA, bobA, annB } = await twoShops();

    const ofA = await get(api, a.apiKey, '/developers/customers');
    const ofB = await get(api, b.apiKey, '/developers/customers');

    expect(ofA.body.data.map((c: { email: string }) => c.email)).toEqual(['bob@example.com', 'ann@example.com']);
    expect(ofA.body.data[1].licenses.map((l: { id: string }) => l.id)).toEqual([annA.id]);
    expect(ofA.body.data[0].licenses[0]).toEqual({ id: bobA.id, productId: a.product.id, status: 'active', issuedAt: bobA.issuedAt, expiresAt: bobA.expiresAt, trial: false });
    expect(ofB.body.data).toHaveLength(1);
    expect(ofB.body.data[0]).toMatchObject({ id: annB.customerId, email: 'ann@example.com', licenses: [{ id: annB.id }], moreLicenses: false });
  });

  test('?email= is a case-insensitive prefix; matches come in e-mail order', async () => {
    const api = testApi();
    const s = await seller(api);
    for (const email of ['anna@example.com', 'ann@example.com', 'bob@example.com', 'annie@example.org']) await s.grant({ email });

    const reply = await get(api, s.apiKey, '/developers/customers?email=ANN');

    expect(reply.body.data.map((c: { email: string }) => c.email)).toEqual(['ann@example.com', 'anna@example.com', 'annie@example.org']);
    expect((await get(api, s.apiKey, '/developers/customers?email=zed')).body).toEqual({ data: [], hasMore: false });
  });

  test('pages by startingAfter in both orders, and a customer with many licenses shows the newest ten', async () => {
    const api = testApi();
    const s = await seller(api);
    for (const email of ['a1@x.io', 'a2@x.io', 'a3@x.io']) {
      await s.grant({ email });
      api.clock.advance(1000);
    }
    for (let i = 0; i < 11; i++) await s.grant({ email: 'a1@x.io' });

    const first = await get(api, s.apiKey, '/developers/customers?email=a&limit=2');
    const second = await get(api, s.apiKey, `/developers/customers?email=a&limit=2&startingAfter=${ids(first)[1]}`);
    const newest = await get(api, s.apiKey, '/developers/customers?limit=2');
    const rest = await get(api, s.apiKey, `/developers/customers?limit=2&startingAfter=${ids(newest)[1]}`);

    expect([...first.body.data, ...second.body.data].map((c: { email: string }) => c.email)).toEqual(['a1@x.io', 'a2@x.io', 'a3@x.io']);
    expect([...newest.body.data, ...rest.body.data].map((c: { email: string }) => c.email)).toEqual(['a3@x.io', 'a2@x.io', 'a1@x.io']);
    expect(first.body.data[0].licenses).toHaveLength(10);
    expect(first.body.data[0].moreLicenses).toBe(true);
  });

  test('another seller’s customer as startingAfter is 400, as an unknown one', async () => {
    const { api, a, annB } = await twoShops();
    const b2 = await seller(api);
    const carol = (await b2.grant({ email: 'carol@example.com' })).license;

    for (const cursor of [carol.customerId, 'cus_unknown']) {
      const reply = await get(api, a.apiKey, `/developers/customers?startingAfter=${cursor}`);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('invalid_request');
    }
    // ann is a's customer too: her id is a valid cursor for a, showing a's data only.
    expect((await get(api, a.apiKey, `/developers/customers?startingAfter=${annB.customerId}`)).status).toBe(200);
  });
});

describe('GET /developers/orders', () => {
  test('lists the seller’s orders newest first with amount, currency, processor ids and license', async () => {
    const { api, a, b, annA, bobA, annB } = await twoShops();
    const first = await givenOrder(api, annA, a.id);
    api.clock.advance(1000);
    const second = await givenOrder(api, bobA, a.id, { amount: 1_500, currency: 'eur' });
    await givenOrder(api, annB, b.id);

    const reply = await get(api, a.apiKey, '/developers/orders');

    expect(ids(reply)).toEqual([second.id, first.id]);
    const { developerId: _d, ...shown } = second;
    expect(reply.body.data[0]).toEqual({ ...shown, customerEmail: 'bob@example.com' });
  });

  test('filters: product, e-mail, status and created range; another seller’s ids find nothing', async () => {
    const { api, a, b, annA, bobA, annB } = await twoShops();
    const ann = await givenOrder(api, annA, a.id, { createdAt: 1000 });
    const bob = await givenOrder(api, bobA, a.id, { createdAt: 2000, status: 'refunded', refundedAt: 3000 });
    const theirs = await givenOrder(api, annB, b.id, { createdAt: 1500 });
    const list = async (q: string) => ids(await get(api, a.apiKey, `/developers/orders?${q}`));

    expect(await list('email=ANN@example.com')).toEqual([ann.id]);
    expect(await list('status=refunded')).toEqual([bob.id]);
    expect(await list('status=paid')).toEqual([ann.id]);
    expect(await list('createdAfter=2000')).toEqual([bob.id]);
    expect(await list('createdBefore=2000')).toEqual([ann.id]);
    expect(await list(`productId=${a.product.id}&limit=1`)).toEqual([bob.id]);
    expect(await list(`productId=${b.product.id}`)).toEqual([]);
    const cursor = await get(api, a.apiKey, `/developers/orders?startingAfter=${theirs.id}`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.code).toBe('invalid_request');
  });

  test.each(['?status=void', '?limit=0', '?createdAfter=x', '?email=nope', '?startingAfter=ord_unknown'])('%s is 400 invalid_request', async (query) => {
    const api = testApi();
    const s = await seller(api);

    const reply = await get(api, s.apiKey, `/developers/orders${query}`);

    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('invalid_request');
  });
});
