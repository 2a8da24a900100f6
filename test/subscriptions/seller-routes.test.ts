import { describe, expect, test } from 'bun:test';
import { periodEndAfter } from '../../src/domain/subscription.ts';
import { connectedShop, SANDBOX_CODE, type Shop } from '../checkout/shop.ts';
import { openPostgresTestStore } from '../contracts/stores.ts';
import { expectError } from '../http/fixtures.ts';
import { depsFor } from '../support/deps.ts';
import { seller, testApi } from '../support/http.ts';
import { aSandboxSubscription } from './subscriber.ts';

const DAY = 86_400_000;

/** A sandbox shop (FixedClock) selling a monthly product. */
async function sandboxShop() {
  const shop = await connectedShop();
  const monthly = async (name = 'Pro monthly') => {
    const reply = await shop.api.call('POST', '/developers/products', { key: shop.dev.apiKey, body: { name, price: 900, currency: 'usd', interval: 'month' } });
    if (reply.status !== 201) throw new Error(`product: ${JSON.stringify(reply.body)}`);
    return reply.body.id as string;
  };
  const productId = await monthly();
  const list = (query = '', key = shop.dev.apiKey) => shop.api.call('GET', `/developers/subscriptions${query}`, { key });
  const get = (id: string, key = shop.dev.apiKey) => shop.api.call('GET', `/developers/subscriptions/${id}`, { key });
  const cancel = (id: string, key = shop.dev.apiKey) => shop.api.call('POST', `/developers/subscriptions/${id}/cancel`, { key });
  const advance = (advanceDays: number) => shop.api.call('POST', '/sandbox/clock', { key: shop.dev.apiKey, body: { advanceDays } });
  return { shop, productId, monthly, list, get, cancel, advance, subscribe: (email: string, product = productId) => subscribe(shop, product, email) };
}

/** A buyer pays a sandbox checkout of the product; returns their license and our subscription id. */
async function subscribe(shop: Shop, productId: string, email: string, cardNumber = '4242 4242 4242 4242') {
  const { sessionId } = await shop.checkout({ productId });
  const form = new URLSearchParams({ email, phone: '+15550100000', cardNumber });
  const pay = await shop.api.call('POST', `/sandbox/checkout/${sessionId}/pay`, { rawBody: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  if (pay.status !== 303) throw new Error(`pay: ${pay.status} ${JSON.stringify(pay.body)}`);
  const { license, licenseKey } = (await shop.status(sessionId)).body;
  const subscription = await shop.api.deps.subscriptions.findByLicense(license.id);
  return { paidAt: shop.clock.now(), license, licenseKey: licenseKey as string, id: subscription!.id };
}

describe('GET /developers/subscriptions', () => {
  test('lists the caller’s subscriptions newest first, each with its customer’s e-mail, license and period', async () => {
    const s = await sandboxShop();
    const first = await s.subscribe('first@example.com');
    s.shop.clock.advance(1000);
    const second = await s.subscribe('second@example.com');

    const reply = await s.list();

    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      data: [
        {
          id: second.id, customerId: expect.any(String), customerEmail: 'second@example.com', productId: s.productId, licenseId: second.license.id,
          processor: 'sandbox', processorSubscriptionId: expect.stringMatching(/^sub_sandbox_/), status: 'active', interval: 'month',
          currentPeriodEnd: periodEndAfter(second.paidAt, 'month'), cancelAtPeriodEnd: false, trialEnd: null, createdAt: second.paidAt, canceledAt: null,
        },
        expect.objectContaining({ id: first.id, customerEmail: 'first@example.com', licenseId: first.license.id }),
      ],
      hasMore: false,
    });
  });

  test('another seller lists none of them, and cannot page from one of them (400 naming startingAfter)', async () => {
    const s = await sandboxShop();
    const { id } = await s.subscribe('buyer@example.com');
    const other = await seller(s.shop.api);

    expect((await s.list('', other.apiKey)).body).toEqual({ data: [], hasMore: false });
    const reply = await s.list(`?startingAfter=${id}`, other.apiKey);
    expectError(reply, 400, 'invalid_request');
    expect(reply.body.error.details.issues[0].field).toBe('startingAfter');
  });

  test('filters by product and by status, and pages with limit and startingAfter', async () => {
    const s = await sandboxShop();
    const yearly = await s.monthly('Pro, other product');
    const a = await s.subscribe('a@example.com');
    s.shop.clock.advance(1000);
    const b = await s.subscribe('b@example.com', yearly);
    s.shop.clock.advance(1000);
    const c = await s.subscribe('c@example.com', yearly);
    await s.shop.api.deps.subscriptions.update((await s.shop.api.deps.subscriptions.findById(s.shop.dev.id, c.id))!.processorSubscriptionId, { status: 'past_due', asOf: s.shop.clock.now() });
    const ids = async (query: string) => (await s.list(query)).body.data.map((x: { id: string }) => x.id);

    expect(await ids(`?productId=${yearly}`)).toEqual([c.id, b.id]);
    expect(await ids('?status=active')).toEqual([b.id, a.id]);
    expect(await ids(`?productId=${yearly}&status=past_due`)).toEqual([c.id]);
    expect((await s.list('?limit=2')).body).toMatchObject({ data: [{ id: c.id }, { id: b.id }], hasMore: true });
    expect((await s.list(`?limit=2&startingAfter=${b.id}`)).body).toMatchObject({ data: [{ id: a.id }], hasMore: false });
  });

  test.each([['?status=paused'], ['?limit=0'], ['?limit=101'], ['?limit=abc'], ['?startingAfter=sub_unknown'], [`?productId=${'x'.repeat(101)}`]])('%s is 400 invalid_request', async (query) => {
    const s = await sandboxShop();
    expectError(await s.list(query), 400, 'invalid_request');
  });
});

describe('GET /developers/subscriptions/:id', () => {
  test('the owner gets it as listed; another seller and an unknown id get 404 not_found', async () => {
    const s = await sandboxShop();
    const { id } = await s.subscribe('buyer@example.com');
    const other = await seller(s.shop.api);

    const reply = await s.get(id);

    expect(reply.status).toBe(200);
    expect(reply.body).toEqual((await s.list()).body.data[0]);
    expectError(await s.get(id, other.apiKey), 404, 'not_found');
    expectError(await s.get('sub_unknown'), 404, 'not_found');
  });
});

describe('POST /developers/subscriptions/:id/cancel in the sandbox', () => {
  test('cancels at period end: not billed again, the license runs to its end plus grace, then expires', async () => {
    const s = await sandboxShop();
    const sub = await s.subscribe('buyer@example.com');

    const reply = await s.cancel(sub.id);

    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: sub.id, status: 'active', cancelAtPeriodEnd: true, canceledAt: null });
    expect((await s.advance(40)).body.billed).toEqual([{ subscriptionId: sub.id, outcome: 'canceled', periods: 0 }]);
    expect((await s.get(sub.id)).body).toMatchObject({ status: 'canceled', canceledAt: periodEndAfter(sub.paidAt, 'month') });
    expect((await s.shop.validate(sub.licenseKey)).body).toMatchObject({ valid: true, license: { expiresAt: sub.license.expiresAt } });
    s.shop.clock.time = sub.license.expiresAt;
    expect((await s.shop.validate(sub.licenseKey)).body).toEqual({ valid: false, reason: 'expired' });
  });

  test('is idempotent: a repeat answers the same, and a canceled subscription is answered as it is (200)', async () => {
    const s = await sandboxShop();
    const { id } = await s.subscribe('buyer@example.com');
    const first = await s.cancel(id);

    expect(await s.cancel(id)).toMatchObject({ status: 200, body: first.body });
    await s.advance(40);
    const ended = await s.cancel(id);
    expect(ended).toMatchObject({ status: 200, body: { status: 'canceled', cancelAtPeriodEnd: true } });
  });

  test('20 concurrent cancels: every one is 200 with the same answer', async () => {
    const s = await sandboxShop();
    const { id } = await s.subscribe('buyer@example.com');

    const replies = await Promise.all(Array.from({ length: 20 }, () => s.cancel(id)));

    expect(new Set(replies.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(replies.map((r) => JSON.stringify(r.body))).size).toBe(1);
  });

  test('another seller’s subscription is 404 not_found and stays as it was', async () => {
    const s = await sandboxShop();
    const { id } = await s.subscribe('buyer@example.com');
    const other = await seller(s.shop.api);

    expectError(await s.cancel(id, other.apiKey), 404, 'not_found');
    expect((await s.get(id)).body.cancelAtPeriodEnd).toBe(false);
  });

  test('a subscription still billed renews as before: only the cancelled one ends', async () => {
    const s = await sandboxShop();
    const kept = await s.subscribe('kept@example.com');
    const ended = await s.subscribe('ended@example.com');
    await s.cancel(ended.id);

    const billed = (await s.advance(32)).body.billed;

    expect(billed).toEqual(expect.arrayContaining([
      { subscriptionId: kept.id, outcome: 'renewed', periods: 1 },
      { subscriptionId: ended.id, outcome: 'canceled', periods: 0 },
    ]));
    expect((await s.shop.api.deps.licenses.findById(kept.license.id))!.expiresAt).toBeGreaterThan(kept.license.expiresAt);
    expect((await s.shop.api.deps.licenses.findById(ended.license.id))!.expiresAt).toBe(ended.license.expiresAt);
  });
});

describe('POST /developers/subscriptions/:id/cancel on PostgreSQL', () => {
  test('200 concurrent cancels of one subscription: every one is 200 with the same answer', async () => {
    const opened = await openPostgresTestStore();
    try {
      const api = testApi({ deps: depsFor(opened.store) });
      const dev = await seller(api);
      const start = await api.call('POST', '/connect/start', { key: dev.apiKey });
      await api.call('GET', `/connect/callback?${new URLSearchParams({ code: SANDBOX_CODE, state: new URL(start.body.url).searchParams.get('state')! })}`);
      const id = await aSandboxSubscription(api, dev.apiKey);

      const replies = await Promise.all(Array.from({ length: 200 }, () => api.call('POST', `/developers/subscriptions/${id}/cancel`, { key: dev.apiKey })));

      expect(new Set(replies.map((r) => r.status))).toEqual(new Set([200]));
      expect(new Set(replies.map((r) => JSON.stringify(r.body))).size).toBe(1);
      expect(replies[0]!.body).toMatchObject({ id, cancelAtPeriodEnd: true, status: 'active' });
    } finally {
      await opened.dispose();
    }
  }, 60_000);
});
