import { describe, expect, test } from 'bun:test';
import { STORE_FACTORIES } from '../contracts/stores.ts';
import type { TestApi } from '../support/http.ts';
import { get, givenOrder, ids, shopOn } from './support.ts';

/** Follows startingAfter from the first page to the last; the ids in the order seen. */
async function allPages(api: TestApi, key: string, path: string): Promise<string[]> {
  const seen: string[] = [];
  let cursor = '';
  for (let pages = 0; pages < 20; pages++) {
    const page = await get(api, key, `${path}${path.includes('?') ? '&' : '?'}limit=2${cursor}`);
    expect(page.status).toBe(200);
    seen.push(...ids(page));
    if (!page.body.hasMore) return seen;
    cursor = `&startingAfter=${ids(page).at(-1)}`;
  }
  throw new Error('more than 20 pages');
}

const byIdDescending = (list: string[]) => [...list].sort().reverse();

/**
 * A cursor is a range bound (the index range starts at it) with the id deciding within its
 * millisecond: records made in one millisecond still page through once each, on every store.
 */
describe.each(STORE_FACTORIES)('cursors within one millisecond on $name', (factory) => {
  const shop = shopOn(factory);

  test('licenses issued at the same instant page by id, also inside a created range', async () => {
    const { api, s } = await shop();
    const at = api.clock.now();
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await s.grant({ email: `c${i}@example.com` })).license.id);
    api.clock.advance(1000);
    await s.grant({}); // outside the range below

    expect(await allPages(api, s.apiKey, '/developers/licenses?email=c3@example.com')).toHaveLength(1);
    expect(await allPages(api, s.apiKey, `/developers/licenses?createdAfter=${at}&createdBefore=${at + 1}`)).toEqual(byIdDescending(made));
    expect(await allPages(api, s.apiKey, `/developers/licenses?productId=${s.product.id}`)).toHaveLength(6);
  });

  test('orders created at the same instant page by id', async () => {
    const { api, s } = await shop();
    const license = (await s.grant({})).license;
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await givenOrder(api, license, s.id)).id);

    expect(await allPages(api, s.apiKey, '/developers/orders')).toEqual(byIdDescending(made));
    expect(await allPages(api, s.apiKey, `/developers/orders?productId=${s.product.id}&createdBefore=${api.clock.now() + 1}`)).toEqual(byIdDescending(made));
  });

  test('customers first seen at the same instant page by id; a prefix search pages in e-mail order', async () => {
    const { api, s } = await shop();
    const made = [];
    for (const name of ['ann', 'anna', 'annie', 'bob', 'annabel']) made.push((await s.grant({ email: `${name}@example.com` })).license.customerId);

    expect(await allPages(api, s.apiKey, '/developers/customers')).toEqual(byIdDescending(made));
    const prefixed = await allPages(api, s.apiKey, '/developers/customers?email=ann');
    expect(prefixed).toEqual([made[0], made[1], made[4], made[2]]); // ann@, anna@, annabel@, annie@
  });
});
