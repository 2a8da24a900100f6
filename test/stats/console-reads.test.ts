import { describe, expect, test } from 'bun:test';
import { ENDPOINT_DISABLED_FAILING, WEBHOOK_LIMITS } from '../../src/domain/webhook-endpoint.ts';
import { STORE_FACTORIES } from '../contracts/stores.ts';
import { expectError } from '../http/fixtures.ts';
import { givenOrder, shopOn } from '../lists/support.ts';
import { seller, testApi } from '../support/http.ts';

const stats = (api: ReturnType<typeof testApi>, key: string, query = '') => api.call('GET', `/developers/stats${query}`, { key });

describe('GET /developers/stats: the range', () => {
  test('by default the last 30 days by day, today included, every day listed', async () => {
    const api = testApi(); // the clock reads 2026-01-01
    const s = await seller(api);
    await s.grant();

    const reply = await stats(api, s.apiKey);

    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ from: '2025-12-03', to: '2026-01-01', interval: 'day' });
    expect(reply.body.series).toHaveLength(30);
    expect(reply.body.series.at(-1)).toEqual({ period: '2026-01-01', newLicenses: 1, orders: 0, revenue: [] });
    expect(reply.body.totals).toEqual({ activeLicenses: 1, activeMachines: 0, mrr: [], newLicenses: 1, revenue: [] });
  });

  test.each([
    ['?from=2026-02-30', 'from', 'from must be a calendar date YYYY-MM-DD (UTC), 1970 or later.'],
    ['?to=2026-13-01', 'to', 'to must be a calendar date YYYY-MM-DD (UTC), 1970 or later.'],
    ['?from=1969-12-31', 'from', 'from must be a calendar date YYYY-MM-DD (UTC), 1970 or later.'],
    ['?from=2026-1-1', 'from', 'from must be a calendar date YYYY-MM-DD (UTC), 1970 or later.'],
    ['?from=2026-01-01T00:00:00Z', 'from', 'from must be a calendar date YYYY-MM-DD (UTC), 1970 or later.'],
    ['?from=2026-03-01&to=2026-02-28', 'from', 'from must be on or before to.'],
    ['?from=2024-12-31&to=2026-01-01', 'from', 'The range is at most 366 days with interval=day (from and to included).'],
    ['?from=2020-01-01&to=2026-01-01&interval=month', 'from', 'The range is at most 1827 days with interval=month (from and to included).'],
    ['?interval=year', 'interval', 'interval must be day, week or month.'],
  ])('%s: 400 invalid_request naming %s', async (query, field, problem) => {
    const api = testApi();
    const s = await seller(api);
    const reply = await stats(api, s.apiKey, query);
    expectError(reply, 400, 'invalid_request');
    expect(reply.body.error.details.issues).toEqual([{ field, problem }]);
  });

  test('a NUL byte, and a range of exactly 366 days or five years, are answered (400 and 200)', async () => {
    const api = testApi();
    const s = await seller(api);
    expectError(await stats(api, s.apiKey, '?from=2026-01-01%00'), 400, 'invalid_request');
    expect((await stats(api, s.apiKey, '?from=2025-01-01&to=2026-01-01')).body.series).toHaveLength(366);
    expect((await stats(api, s.apiKey, '?from=2021-01-01&to=2025-12-31&interval=month')).body.series).toHaveLength(60);
  });
});

describe.each(STORE_FACTORIES)('the console’s reads on $name', (factory) => {
  const shop = shopOn(factory);

  test('stats count only the caller’s: another seller’s licenses and orders are not in them; the 10 newest orders come along', async () => {
    const { api, s } = await shop();
    const other = await seller(api);
    const mine = (await s.grant({ email: 'ann@example.com' })).license;
    const theirs = (await other.grant({ email: 'ann@example.com' })).license;
    for (let i = 0; i < 11; i++) {
      api.clock.advance(1_000);
      await givenOrder(api, mine, s.id, { amount: 100 });
    }
    await givenOrder(api, theirs, other.id, { amount: 99_999, currency: 'eur' });

    const reply = await stats(api, s.apiKey, '?from=2026-01-01&to=2026-01-01');

    expect(reply.body.series).toEqual([{ period: '2026-01-01', newLicenses: 1, orders: 11, revenue: [{ currency: 'usd', amount: 1_100 }] }]);
    expect(reply.body.totals).toMatchObject({ activeLicenses: 1, newLicenses: 1, revenue: [{ currency: 'usd', amount: 1_100 }] });
    expect(reply.body.recentOrders).toHaveLength(10);
    expect(reply.body.recentOrders[0]).toEqual((await api.call('GET', '/developers/orders?limit=1', { key: s.apiKey })).body.data[0]);
  });

  test('an endpoint whose deliveries fail is listed with its failed deliveries; a healthy one, or one the seller turned off, is not', async () => {
    const { api, s } = await shop();
    const endpoint = async (url: string) => (await api.call('POST', '/developers/webhook-endpoints', { key: s.apiKey, body: { url } })).body.id as string;
    const failing = await endpoint('https://hooks.example.com/failing');
    await endpoint('https://hooks.example.com/healthy');
    const turnedOff = await endpoint('https://hooks.example.com/turned-off');
    const fail = async (endpointId: string) => {
      const delivery = (await api.call('POST', `/developers/webhook-endpoints/${endpointId}/test`, { key: s.apiKey })).body;
      await api.deps.outbox.recordAttempt(
        { id: delivery.id, endpointId },
        { at: api.clock.now(), status: 500, error: null, durationMs: 5 },
        { status: 'failed' },
        { disableAfterMs: WEBHOOK_LIMITS.disableAfterFailingMs, disabledReason: ENDPOINT_DISABLED_FAILING },
      );
    };
    for (let i = 0; i < 3; i++) await fail(failing);
    await fail(turnedOff);
    expect((await api.call('PATCH', `/developers/webhook-endpoints/${turnedOff}`, { key: s.apiKey, body: { enabled: false } })).status).toBe(200);

    const reply = await stats(api, s.apiKey);

    expect(reply.body.failingWebhookEndpoints).toEqual([
      { id: failing, url: 'https://hooks.example.com/failing', enabled: true, disabledReason: null, failingSince: api.clock.now(), failedDeliveries: 3 },
    ]);
  });

  test('GET /developers/events?licenseId= lists that license’s events only, newest first, in pages; another seller’s license finds nothing', async () => {
    const { api, s } = await shop();
    const other = await seller(api);
    const license = (await s.grant({ email: 'ann@example.com' })).license;
    await s.grant({ email: 'bob@example.com' });
    const theirs = (await other.grant()).license;
    api.clock.advance(1_000);
    await givenOrder(api, license, s.id);
    expect((await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey })).status).toBe(200);
    const events = (query: string, key = s.apiKey) => api.call('GET', `/developers/events?${query}`, { key });

    const all = await events(`licenseId=${license.id}`);
    expect(all.body.data.map((e: { type: string }) => e.type)).toEqual(['license.revoked', 'order.completed', 'license.created']);
    const first = await events(`licenseId=${license.id}&limit=2`);
    const second = await events(`licenseId=${license.id}&limit=2&startingAfter=${first.body.data[1].id}`);
    expect([...first.body.data, ...second.body.data]).toEqual(all.body.data);
    expect([first.body.hasMore, second.body.hasMore]).toEqual([true, false]);
    expect((await events(`licenseId=${theirs.id}`)).body).toEqual({ data: [], hasMore: false });
    expectError(await events(`licenseId=${'x'.repeat(101)}`), 400, 'invalid_request');
  });
});
