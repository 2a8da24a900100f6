import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { openPostgresTestStore } from '../contracts/stores.ts';
import { connectedShop, deliver, type Shop } from '../checkout/shop.ts';
import { depsFor } from '../support/deps.ts';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.ts';
import { seller, testApi, type Reply, type TestApi } from '../support/http.ts';
import { DAY, startSubscriptionFake } from '../subscriptions/stripe-shop.ts';

const GRACE = 3 * DAY;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The seller's outgoing events written by `action`, by type. */
async function eventsOf(api: TestApi, developerId: string, action: () => Promise<unknown>): Promise<string[]> {
  const list = async () => (await api.deps.outbox.listEvents(developerId, { limit: 100 }))?.data ?? [];
  const before = new Set((await list()).map((e) => e.id));
  await action();
  return (await list()).filter((e) => !before.has(e.id)).map((e) => e.type).sort();
}

/** A buyer pays a sandbox checkout of `productId` with the Pay button: the order and license it made. */
async function sandboxSale(api: TestApi, apiKey: string, productId: string, email = 'buyer@example.com') {
  const checkout = await api.call('POST', '/checkout/init', { key: apiKey, body: { productId } });
  const form = new URLSearchParams({ email, phone: '+15550100000', cardNumber: '4242 4242 4242 4242' });
  const pay = await api.call('POST', `/sandbox/checkout/${checkout.body.sessionId}/pay`, { rawBody: form.toString(), headers: FORM });
  if (pay.status !== 303) throw new Error(`pay: ${pay.status} ${JSON.stringify(pay.body)}`);
  const order = (await api.deps.orders.findBySource(checkout.body.sessionId))!;
  return { order, licenseId: order.licenseId };
}

describe('POST /developers/orders/:id/refund in the sandbox', () => {
  let shop: Shop;
  let refund: (id: string, body?: Record<string, unknown>, key?: string) => Promise<Reply>;
  beforeAll(async () => {
    shop = await connectedShop();
    refund = (id, body, key = shop.dev.apiKey) => shop.api.call('POST', `/developers/orders/${id}/refund`, { key, ...(body ? { body } : {}) });
  });
  const license = (id: string) => shop.api.deps.licenses.findById(id);

  test('no amount: all of it goes back at once, the license is revoked; asking again answers the order as it is', async () => {
    const { order, licenseId } = await sandboxSale(shop.api, shop.dev.apiKey, shop.dev.product.id);

    let reply: Reply | undefined;
    const events = await eventsOf(shop.api, shop.dev.id, async () => (reply = await refund(order.id)));

    expect(reply!.status).toBe(200);
    expect(reply!.body).toMatchObject({ id: order.id, status: 'refunded', amountRefunded: order.amount, refundedAt: shop.clock.now(), customerEmail: 'buyer@example.com' });
    expect(reply!.body.developerId).toBeUndefined();
    expect((await license(licenseId))!.storedStatus).toBe('revoked');
    expect(events).toEqual(['license.revoked', 'order.refunded']);
    const again = await eventsOf(shop.api, shop.dev.id, async () => expect((await refund(order.id, { amount: 1 })).body).toEqual(reply!.body));
    expect(again).toEqual([]);
  });

  test('part of it: the amount is recorded and the license kept; the rest, later, revokes', async () => {
    const { order, licenseId } = await sandboxSale(shop.api, shop.dev.apiKey, shop.dev.product.id);

    const part = await refund(order.id, { amount: 100 });
    expect(part.body).toMatchObject({ status: 'paid', amountRefunded: 100 });
    expect((await license(licenseId))!.storedStatus).toBe('active');
    const tooMuch = await refund(order.id, { amount: order.amount });
    expect([tooMuch.status, tooMuch.body.error.code, tooMuch.body.error.message]).toEqual([400, 'invalid_request', `amount must be at most ${order.amount - 100}, what is left to refund of this order.`]);
    const rest = await refund(order.id, { amount: order.amount - 100 });

    expect(rest.body).toMatchObject({ status: 'refunded', amountRefunded: order.amount });
    expect((await license(licenseId))!.storedStatus).toBe('revoked');
  });

  test('bad amounts are 400 naming amount; another seller’s or an unknown order 404; a publishable key 403', async () => {
    const { order } = await sandboxSale(shop.api, shop.dev.apiKey, shop.dev.product.id);
    const rival = await seller(shop.api);

    for (const amount of [0, -5, 1.5, '100', null, 2 ** 60]) {
      const reply = await refund(order.id, { amount });
      expect({ amount, status: reply.status, code: reply.body.error?.code, field: reply.body.error?.details?.issues?.[0]?.field }).toEqual({ amount, status: 400, code: 'invalid_request', field: 'amount' });
    }
    expect((await refund(order.id, {}, rival.apiKey)).status).toBe(404);
    expect((await refund('ord_unknown')).status).toBe(404);
    expect((await refund(order.id, {}, shop.dev.publishableKey)).status).toBe(403);
    expect((await shop.api.deps.orders.findById(order.id))!.amountRefunded).toBe(0);
  });

  test('a renewal billed by the sandbox clock, refunded: the license goes back to the end of the period paid before it', async () => {
    const product = await shop.api.call('POST', '/developers/products', { key: shop.dev.apiKey, body: { name: 'Monthly', price: 900, currency: 'usd', interval: 'month' } });
    const { licenseId } = await sandboxSale(shop.api, shop.dev.apiKey, product.body.id, 'subscriber@example.com');
    const firstEnd = (await shop.api.deps.subscriptions.findByLicense(licenseId))!.currentPeriodEnd;
    const billed = await shop.api.call('POST', '/sandbox/clock', { key: shop.dev.apiKey, body: { advanceDays: 32 } });
    expect(billed.status).toBe(200);
    const renewal = (await shop.api.deps.orders.findByLicense(licenseId)).find((o) => o.source === 'renewal')!;
    expect((await license(licenseId))!.expiresAt).toBe(renewal.periodEnd! + GRACE);

    const events = await eventsOf(shop.api, shop.dev.id, async () => expect((await refund(renewal.id)).body).toMatchObject({ status: 'refunded', periodStart: firstEnd }));

    expect((await license(licenseId))!).toMatchObject({ storedStatus: 'active', expiresAt: firstEnd + GRACE });
    expect(events).toEqual(['license.updated', 'order.refunded']);
  });
});

describe('POST /developers/orders/:id/refund with Stripe (the local fake, through the SDK)', () => {
  let fake: FakeStripe;
  let shop: Shop;
  beforeAll(async () => {
    fake = await startFakeStripe();
    shop = await connectedShop({ fake });
  });
  afterAll(() => fake.stop());

  const stripeSale = () => shop.stripeSale();
  const refund = (id: string, body?: Record<string, unknown>) => shop.api.call('POST', `/developers/orders/${id}/refund`, { key: shop.dev.apiKey, ...(body ? { body } : {}) });

  test('Stripe refunds the payment on the connected account, under one idempotency key; its charge.refunded then changes nothing more', async () => {
    const { order, payment } = await stripeSale();

    const reply = await refund(order.id, { amount: 500 });

    expect(reply.body).toMatchObject({ status: 'paid', amountRefunded: 500 });
    const made = fake.refunds.filter((r) => r.paymentIntentId === payment.paymentIntentId);
    expect(made).toEqual([{ id: expect.any(String), paymentIntentId: payment.paymentIntentId, amount: 500, account: 'acct_1FakeConnected', idempotencyKey: `order-refund-${order.id}-0` }]);
    const late = await eventsOf(shop.api, shop.dev.id, () => deliver(shop.api, fake.chargeRefundedEvent(payment.paymentIntentId)));
    expect(late).toEqual([]);
    expect((await refund(order.id)).body).toMatchObject({ status: 'refunded', amountRefunded: order.amount });
    expect(fake.refunds.filter((r) => r.paymentIntentId === payment.paymentIntentId).map((r) => r.idempotencyKey)).toEqual([`order-refund-${order.id}-0`, `order-refund-${order.id}-500`]);
  });

  test('20 concurrent refunds of one order: Stripe refunds once, one order.refunded, every caller gets the refunded order', async () => {
    const { order, payment } = await stripeSale();

    let replies: Reply[] = [];
    const events = await eventsOf(shop.api, shop.dev.id, async () => (replies = await Promise.all(Array.from({ length: 20 }, () => refund(order.id)))));

    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(replies.every((r) => r.body.status === 'refunded')).toBe(true);
    expect(fake.refunds.filter((r) => r.paymentIntentId === payment.paymentIntentId)).toHaveLength(1);
    expect(events).toEqual(['license.revoked', 'order.refunded']);
  });

  test('what Stripe refuses (refunded in the dashboard meanwhile) is 409 and changes nothing here; Stripe down is 502', async () => {
    const { order, payment } = await stripeSale();
    fake.refundInDashboard(payment.paymentIntentId);

    const refused = await refund(order.id);
    const other = await stripeSale();
    fake.failNext(500, 5);
    const down = await refund(other.order.id);
    fake.failNext(500, 0);

    expect([refused.status, refused.body.error.code]).toEqual([409, 'conflict']);
    expect([down.status, down.body.error.code]).toEqual([502, 'processor_error']);
    expect((await shop.api.deps.orders.findById(order.id))!.amountRefunded).toBe(0);
    expect((await shop.api.deps.orders.findById(other.order.id))!.amountRefunded).toBe(0);
    // A payment Stripe does not know on this account (another account connected since): 409, nothing changed.
    const unknown = await shop.api.deps.orders.record({ ...other.order, id: 'ord_elsewhere', sourceId: 'cs_elsewhere', paymentId: 'pi_elsewhere' });
    const elsewhere = await refund(unknown.id);
    expect([elsewhere.status, elsewhere.body.error.code]).toEqual([409, 'conflict']);
  });
});

describe('a renewal refunded through the route, with Stripe', () => {
  const subs = startSubscriptionFake();
  afterAll(async () => (await subs).fake.stop());

  test('Stripe refunds the renewal’s payment and the license goes back to the period paid before it', async () => {
    const { fake, subscribed } = await subs;
    const s = await subscribed();
    const firstEnd = fake.subscription(s.subscriptionId).items.data[0].current_period_end * 1000;
    s.shop.clock.advance(31 * DAY);
    const renewal = fake.renew(s.subscriptionId, 'paid', 'current-unlisted');
    await s.send(...renewal.events);
    const order = (await s.shop.api.deps.orders.findBySource(renewal.invoiceId))!;

    const reply = await s.shop.api.call('POST', `/developers/orders/${order.id}/refund`, { key: s.shop.dev.apiKey });

    expect(reply.body).toMatchObject({ status: 'refunded', amountRefunded: 900, paymentId: renewal.paymentIntentId });
    expect(fake.refunds.filter((r) => r.paymentIntentId === renewal.paymentIntentId)).toHaveLength(1);
    expect((await s.shop.api.deps.licenses.findById(s.licenseId))!.expiresAt).toBe(firstEnd + GRACE);
  });
});

describe('on PostgreSQL', () => {
  test('200 concurrent refunds of one sandbox order: recorded once, one order.refunded and one license.revoked, every caller 200', async () => {
    const opened = await openPostgresTestStore();
    try {
      const api = testApi({ deps: depsFor(opened.store) });
      const dev = await seller(api);
      const start = await api.call('POST', '/connect/start', { key: dev.apiKey });
      const state = new URL(start.body.url).searchParams.get('state')!;
      await api.call('GET', `/connect/callback?${new URLSearchParams({ code: 'sbx_code_abcdefgh12345678', state })}`);
      const { order, licenseId } = await sandboxSale(api, dev.apiKey, dev.product.id);

      let replies: Reply[] = [];
      const events = await eventsOf(api, dev.id, async () => {
        replies = await Promise.all(Array.from({ length: 200 }, () => api.call('POST', `/developers/orders/${order.id}/refund`, { key: dev.apiKey })));
      });

      expect(replies.filter((r) => r.status === 200 && r.body.status === 'refunded')).toHaveLength(200);
      expect(events).toEqual(['license.revoked', 'order.refunded']);
      expect((await api.deps.orders.findById(order.id))!).toMatchObject({ amountRefunded: order.amount, status: 'refunded' });
      expect((await api.deps.licenses.findById(licenseId))!.storedStatus).toBe('revoked');
    } finally {
      await opened.dispose();
    }
  }, 60_000);
});
