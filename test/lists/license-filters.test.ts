import { describe, expect, test } from 'bun:test';
import { seller, testApi } from '../support/http.ts';
import { get, ids, twoShops } from './support.ts';

const DAY = 86_400_000;

describe('GET /developers/licenses filters', () => {
  test('status is as validation sees it now: active, expired (past expiresAt) or revoked', async () => {
    const api = testApi();
    const s = await seller(api);
    const perpetual = (await s.grant({ expiresAt: null })).license;
    const soon = (await s.grant({ expiresAt: api.clock.now() + DAY })).license;
    const revoked = (await s.grant({})).license;
    await api.call('POST', `/licenses/${revoked.id}/revoke`, { key: s.apiKey });
    api.clock.advance(2 * DAY);

    expect(ids(await get(api, s.apiKey, '/developers/licenses?status=expired'))).toEqual([soon.id]);
    expect(ids(await get(api, s.apiKey, '/developers/licenses?status=revoked'))).toEqual([revoked.id]);
    expect(ids(await get(api, s.apiKey, '/developers/licenses?status=active'))).toContain(perpetual.id);
    expect(ids(await get(api, s.apiKey, '/developers/licenses?status=active'))).not.toContain(soon.id);
  });

  test('createdAfter is inclusive and createdBefore exclusive, so ranges tile without overlap', async () => {
    const api = testApi();
    const s = await seller(api);
    const made = [];
    for (let i = 0; i < 3; i++) {
      made.push((await s.grant({})).license);
      api.clock.advance(1000);
    }
    const t1 = made[1].issuedAt;

    expect(ids(await get(api, s.apiKey, `/developers/licenses?createdAfter=${t1}`))).toEqual([made[2].id, made[1].id]);
    expect(ids(await get(api, s.apiKey, `/developers/licenses?createdBefore=${t1}`))).toEqual([made[0].id]);
    expect(ids(await get(api, s.apiKey, `/developers/licenses?createdAfter=${t1}&createdBefore=${t1 + 1}`))).toEqual([made[1].id]);
  });

  test('trial=false keeps paid and granted licenses; each shows trial and subscriptionId', async () => {
    const api = testApi();
    const s = await seller(api);
    const granted = (await s.grant({})).license;

    const reply = await get(api, s.apiKey, '/developers/licenses?trial=false');

    expect(ids(reply)).toEqual([granted.id]);
    expect(reply.body.data[0]).toMatchObject({ trial: false, subscriptionId: null });
    expect(ids(await get(api, s.apiKey, '/developers/licenses?trial=true'))).toEqual([]);
  });

  test('filters combine with each other and with the cursor', async () => {
    const { api, a, annA } = await twoShops();
    const later = (await a.grant({ email: 'ann@example.com' })).license;

    const first = await get(api, a.apiKey, `/developers/licenses?email=ann@example.com&status=active&productId=${a.product.id}&limit=1`);
    const second = await get(api, a.apiKey, `/developers/licenses?email=ann@example.com&status=active&productId=${a.product.id}&limit=1&startingAfter=${ids(first)[0]}`);

    expect([...ids(first), ...ids(second)]).toEqual([later.id, annA.id]);
    expect(first.body.hasMore).toBe(true);
    expect(second.body.hasMore).toBe(false);
  });

  test('pages neither skip nor repeat while licenses are issued between them', async () => {
    const api = testApi();
    const s = await seller(api);
    const before = [];
    for (let i = 0; i < 5; i++) {
      before.push((await s.grant({})).license.id);
      api.clock.advance(1000);
    }
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const page = await get(api, s.apiKey, `/developers/licenses?limit=2${cursor}`);
      seen.push(...ids(page));
      await s.grant({}); // a new license lands at the head, never inside the pages still to come
      api.clock.advance(1000);
      if (!page.body.hasMore) break;
      cursor = `&startingAfter=${ids(page).at(-1)}`;
    }

    expect(seen).toEqual(before.reverse());
  });

  test('another seller’s product or customer in a filter gives an empty list, never their data', async () => {
    const { api, a, b } = await twoShops();

    expect((await get(api, a.apiKey, `/developers/licenses?productId=${b.product.id}`)).body).toEqual({ data: [], hasMore: false });
    const annOfA = await get(api, a.apiKey, '/developers/licenses?email=ann@example.com');
    expect(annOfA.body.data).toHaveLength(1);
  });

  test.each([
    ['?status=lapsed', 'status'],
    ['?trial=maybe', 'trial'],
    ['?createdAfter=-1', 'createdAfter'],
    ['?createdBefore=soon', 'createdBefore'],
  ])('%s is 400 invalid_request', async (query) => {
    const api = testApi();
    const s = await seller(api);

    const reply = await get(api, s.apiKey, `/developers/licenses${query}`);

    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('invalid_request');
  });
});
