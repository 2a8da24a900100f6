import { describe, expect, test } from 'bun:test';
import { DAY_MS, dayLabel, dayOf } from '../../src/domain/stats.ts';
import { SANDBOX_CODE } from '../checkout/shop.ts';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import type { Store } from '../../src/ports/deps.ts';
import { STORE_FACTORIES, freshStorePerTest } from '../contracts/stores.ts';
import { testSchemas } from '../support/postgres-schemas.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';
import { depsFor } from '../support/deps.ts';
import { testApi, type TestApi } from '../support/http.ts';
import { trialShop } from '../trials/trial-shop.ts';
import { statsByBruteForce } from './brute-force.ts';

const HOUR = 3_600_000;

/** Buys `productId` through the sandbox checkout (init, pay), as a buyer would: the license and its order. */
async function sandboxPurchase(api: TestApi, key: string, productId: string, email: string, cardNumber = '4242 4242 4242 4242') {
  const init = await api.call('POST', '/checkout/init', { key, body: { productId } });
  if (init.status !== 201) throw new Error(`init: ${JSON.stringify(init.body)}`);
  const form = new URLSearchParams({ email, phone: '+15550100000', cardNumber });
  const pay = await api.call('POST', `/sandbox/checkout/${init.body.sessionId}/pay`, { rawBody: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  if (pay.status !== 303) throw new Error(`pay: ${pay.status} ${JSON.stringify(pay.body)}`);
  return (await api.call('GET', `/checkout/status/${init.body.sessionId}`)).body as { license: { id: string }; licenseKey: string };
}

/**
 * Every write path that makes a license, an order, a machine, a refund or a subscription, scripted
 * over several days on one store; afterwards GET /developers/stats must equal what the rows say.
 */
describe.each(STORE_FACTORIES)('the console rollups on $name', (factory) => {
  const opened = freshStorePerTest(factory);

  test('after grants, trials, checkouts, subscriptions, renewals, refunds, revocations and machines, the stats equal the rows counted one by one', async () => {
    const { store } = opened();
    const api = testApi({ deps: depsFor(store) });
    const shop = await trialShop(api);
    const { s } = shop;
    const key = s.apiKey;
    const start = await api.call('POST', '/connect/start', { key });
    await api.call('GET', `/connect/callback?${new URLSearchParams({ code: SANDBOX_CODE, state: new URL(start.body.url).searchParams.get('state')! })}`);
    const product = async (body: Record<string, unknown>) => (await api.call('POST', '/developers/products', { key, body: { features: ['pro'], ...body } })).body.id as string;
    const monthly = await product({ name: 'Monthly', price: 900, currency: 'usd', interval: 'month' });
    const yearly = await product({ name: 'Yearly', price: 12_000, currency: 'eur', interval: 'year' });
    const oneOff = await product({ name: 'Lifetime', price: 4_900, currency: 'eur' });
    const day0 = api.clock.now();

    // Day 0: grants (perpetual, ending tomorrow), a trial with its machine, sales, subscriptions.
    const perpetual = (await s.grant({ email: 'ann@example.com' })).license;
    await s.grant({ email: 'bob@example.com', expiresAt: day0 + DAY_MS });
    expect((await shop.start({ email: 'tia@example.com', machineFingerprint: 'tia-1' })).status).toBe(201);
    const sale = await sandboxPurchase(api, key, oneOff, 'cat@example.com');
    const sale2 = await sandboxPurchase(api, key, s.product.id, 'dan@example.com');
    const sub = await sandboxPurchase(api, key, monthly, 'eve@example.com');
    await sandboxPurchase(api, key, yearly, 'fay@example.com');
    await sandboxPurchase(api, key, monthly, 'gus@example.com', '4000 0000 0000 0341'); // its renewal will fail
    await sandboxPurchase(api, key, monthly, 'jay@example.com'); // renewed
    expect((await api.call('POST', '/licenses/activate', { key: s.publishableKey, body: { licenseKey: sale.licenseKey, machineFingerprint: 'cat-1' } })).status).toBe(201);
    expect((await api.call('POST', '/licenses/activate', { key: s.publishableKey, body: { licenseKey: sale2.licenseKey, machineFingerprint: 'dan-1' } })).status).toBe(201);

    // Day 1: a partial and a full refund, a revocation, a machine removed, a subscription cancelled at its period's end.
    api.clock.advance(DAY_MS + HOUR);
    const orderOf = async (licenseId: string) => (await api.deps.orders.findByLicense(licenseId))[0]!;
    expect((await api.call('POST', `/developers/orders/${(await orderOf(sale.license.id)).id}/refund`, { key, body: { amount: 1_000 } })).status).toBe(200);
    expect((await api.call('POST', `/developers/orders/${(await orderOf(sale2.license.id)).id}/refund`, { key })).status).toBe(200);
    expect((await api.call('POST', `/licenses/${perpetual.id}/revoke`, { key })).status).toBe(200);
    const machines = await api.call('GET', `/licenses/${sale.license.id}/activations`, { key });
    expect((await api.call('DELETE', `/licenses/${sale.license.id}/activations/${machines.body.data[0].id}`, { key })).status).toBe(200);
    const subscription = (await api.deps.subscriptions.findByLicense(sub.license.id))!;
    expect((await api.call('POST', `/developers/subscriptions/${subscription.id}/cancel`, { key })).status).toBe(200);
    await s.grant({ email: 'hal@example.com', expiresAt: api.clock.now() + 2 * HOUR }); // ends later today
    await s.grant({ email: 'ivy@example.com', expiresAt: api.clock.now() + 30 * 60_000 });

    // Renewals: the sandbox billing clock moves a month on; one renews, one fails (past_due), the cancelled one ends.
    const billed = await api.call('POST', '/sandbox/clock', { key, body: { advanceDays: 32 } });
    const outcomes = billed.body.billed.map((b: { outcome: string }) => b.outcome);
    expect(outcomes).toContain('renewed');
    expect(outcomes).toContain('payment_failed');
    expect((await api.deps.subscriptions.findByLicense(sub.license.id))?.status).toBe('canceled');
    api.clock.advance(HOUR); // ivy's license is now past its end, hal's not yet

    const now = api.clock.now();
    const fromDay = dayOf(day0);
    const toDay = dayOf(now) + 40; // the renewal's order is on the billing clock's day
    const reply = await api.call('GET', `/developers/stats?from=${dayLabel(fromDay)}&to=${dayLabel(toDay)}`, { key });
    expect(reply.status).toBe(200);
    const expected = await statsByBruteForce(store, s.id, fromDay, toDay, now);
    expect(reply.body.series).toEqual(expected.series);
    expect(reply.body.totals).toEqual(expected.totals);
    // The scripted run is what it says: every kind of row is there (the one machine left is the trial's: the fully refunded sale was revoked).
    expect(expected.totals).toMatchObject({ activeMachines: 1, mrr: [{ currency: 'eur', amount: 1_000 }, { currency: 'usd', amount: 1_800 }] });
    expect(expected.series.reduce((n, p) => n + p.orders, 0)).toBe(7);
    expect(reply.body.recentOrders).toHaveLength(7);
  });

  test('weeks and months sum the days they hold; a range is cut at from and to', async () => {
    const { store } = opened();
    const api = testApi({ deps: depsFor(store) });
    const { s } = await trialShop(api);
    const first = api.clock.now(); // 2026-01-01, a Thursday
    for (const days of [0, 3, 4, 10, 31, 40]) {
      api.clock.time = first + days * DAY_MS;
      await s.grant({ email: `d${days}@example.com` });
    }
    const get = async (query: string) => (await api.call('GET', `/developers/stats?${query}`, { key: s.apiKey })).body;

    const weeks = await get('from=2026-01-01&to=2026-02-10&interval=week');
    expect(weeks.series.slice(0, 3)).toEqual([
      { period: '2025-12-29', newLicenses: 2, orders: 0, revenue: [] }, // Thu 1 and Sun 4 January
      { period: '2026-01-05', newLicenses: 2, orders: 0, revenue: [] }, // Mon 5 and Sun 11
      { period: '2026-01-12', newLicenses: 0, orders: 0, revenue: [] },
    ]);
    const months = await get('from=2026-01-02&to=2026-02-05&interval=month');
    expect(months.series).toEqual([
      { period: '2026-01-01', newLicenses: 3, orders: 0, revenue: [] }, // the 4th, 5th and 11th; the 1st is before from
      { period: '2026-02-01', newLicenses: 1, orders: 0, revenue: [] }, // the 1st; the 10th is after to
    ]);
    expect(months.totals.newLicenses).toBe(4);
  });
});

describe('the console rollups under concurrency on PostgreSQL', () => {
  test('200 concurrent purchases, and 50 concurrent refunds of them, leave the rollups exact', async () => {
    // The pool's wait raised: 200 requests at once on a loaded machine would otherwise be shed (503) by design.
    const schemas = testSchemas();
    const schema = await schemas.take();
    const store = await openPostgresStore(TEST_POSTGRES_URL, { schema, poolWaitMs: 60_000 });
    try {
      await concurrentPurchases(store);
    } finally {
      await store.close();
      await schemas.give(schema);
    }
  });
});

/** Buys 200 licenses at once through the sandbox checkout, refunds 50 of them at once, and checks the rollups against the rows. */
async function concurrentPurchases(store: Store) {
  const api = testApi({ deps: depsFor(store) });
  const { s } = await trialShop(api);
  const start = await api.call('POST', '/connect/start', { key: s.apiKey });
  await api.call('GET', `/connect/callback?${new URLSearchParams({ code: SANDBOX_CODE, state: new URL(start.body.url).searchParams.get('state')! })}`);

  const bought = await Promise.all(Array.from({ length: 200 }, (_, i) => sandboxPurchase(api, s.apiKey, s.product.id, `buyer${i}@example.com`)));
  const refunds = await Promise.all(
    bought.slice(0, 50).map(async ({ license }, i) => {
      const [order] = await api.deps.orders.findByLicense(license.id);
      return api.call('POST', `/developers/orders/${order!.id}/refund`, { key: s.apiKey, body: i % 2 ? { amount: 500 } : {} });
    }),
  );

  expect(refunds.every((r) => r.status === 200)).toBe(true);
  const day = dayOf(api.clock.now());
  const reply = await api.call('GET', `/developers/stats?from=${dayLabel(day)}&to=${dayLabel(day)}`, { key: s.apiKey });
  const expected = await statsByBruteForce(store, s.id, day, day, api.clock.now());
  expect(reply.body.series).toEqual(expected.series);
  expect(reply.body.totals).toEqual(expected.totals);
  // 25 full refunds revoked their licenses; 25 partial ones took 5.00 each of 19.99.
  expect(expected.series[0]).toEqual({ period: dayLabel(day), newLicenses: 200, orders: 200, revenue: [{ currency: 'usd', amount: 175 * 1_999 - 25 * 500 }] });
  expect(expected.totals.activeLicenses).toBe(175);
}
