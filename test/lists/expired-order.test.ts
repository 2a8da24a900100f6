import { describe, expect, test } from 'bun:test';
import { STORE_FACTORIES } from '../contracts/stores.ts';
import { get, ids, shopOn } from './support.ts';

const DAY = 86_400_000;

/** status=expired is listed by expiry, most recently expired first, on every store. */
describe.each(STORE_FACTORIES)('GET /developers/licenses?status=expired on $name', (factory) => {
  const shop = shopOn(factory);

  test('the most recently expired comes first, whatever the issue order', async () => {
    const { api, s } = await shop();
    const now = api.clock.now();
    const late = (await s.grant({ expiresAt: now + 3 * DAY })).license;
    const early = (await s.grant({ expiresAt: now + DAY })).license;
    const middle = (await s.grant({ expiresAt: now + 2 * DAY })).license;
    await s.grant({ expiresAt: now + 10 * DAY }); // still active
    await s.grant({ expiresAt: null });
    api.clock.advance(5 * DAY);

    expect(ids(await get(api, s.apiKey, '/developers/licenses?status=expired'))).toEqual([late.id, middle.id, early.id]);
  });

  test('pages neither skip nor repeat while more licenses expire between them, ties included', async () => {
    const { api, s } = await shop();
    const now = api.clock.now();
    const expiries = [2, 5, 1, 4, 4, 3].map((days) => now + days * DAY); // two expire at the same millisecond
    const made = [];
    for (const expiresAt of expiries) made.push((await s.grant({ expiresAt })).license);
    for (const days of [20, 30, 40]) await s.grant({ expiresAt: now + days * DAY }); // expire while paging
    const revoked = (await s.grant({ expiresAt: now + DAY })).license;
    await api.call('POST', `/licenses/${revoked.id}/revoke`, { key: s.apiKey });
    api.clock.advance(6 * DAY);

    const seen: string[] = [];
    let cursor = '';
    for (let pages = 0; pages < 10; pages++) {
      const page = await get(api, s.apiKey, `/developers/licenses?status=expired&limit=2${cursor}`);
      seen.push(...ids(page));
      api.clock.advance(10 * DAY); // one more license expires: it is newer than every cursor, so it lands at the head
      if (!page.body.hasMore) break;
      cursor = `&startingAfter=${ids(page).at(-1)}`;
    }

    const byExpiryThenId = [...made].sort((a, b) => b.expiresAt! - a.expiresAt! || (a.id < b.id ? 1 : -1)).map((l) => l.id);
    expect(seen).toEqual(byExpiryThenId);
  });

  test('expired combines with the other filters and shows the expiry it is ordered by', async () => {
    const { api, s } = await shop();
    const now = api.clock.now();
    const ann = (await s.grant({ email: 'ann@example.com', expiresAt: now + DAY })).license;
    await s.grant({ email: 'bob@example.com', expiresAt: now + 2 * DAY });
    api.clock.advance(3 * DAY);

    const reply = await get(api, s.apiKey, `/developers/licenses?status=expired&email=ann@example.com&productId=${s.product.id}`);

    expect(ids(reply)).toEqual([ann.id]);
    expect(reply.body.data[0]).toMatchObject({ status: 'expired', expiresAt: now + DAY });
  });
});
