import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { aPayment, deliver, shopOn } from '../checkout/shop.ts';
import { openPostgresTestStore } from '../contracts/stores.ts';
import { depsFor } from '../support/deps.ts';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.ts';
import { customerAuth, loginCode } from '../support/sign-in.ts';

/**
 * The buyer's cancel and resume on PostgreSQL with Stripe (the local fake, through the official SDK):
 * under 50 concurrent requests the store's claim lets one request make each change, so Stripe hears
 * every change once and never a request that changes nothing, and Stripe and the store end agreeing.
 */

let buyers = 0;

let store: Awaited<ReturnType<typeof openPostgresTestStore>>;
let fake: FakeStripe;
let shop: Awaited<ReturnType<typeof shopOn>>;

beforeAll(async () => {
  store = await openPostgresTestStore();
  const deps = depsFor(store.store);
  fake = await startFakeStripe({ now: () => deps.clock.now() });
  shop = await shopOn(deps, { fake });
  expect((await shop.connect()).status).toBe(200);
});
afterAll(async () => {
  fake.stop();
  await store.dispose();
});

/** A buyer who subscribed at Stripe (completed by its webhook) and signed in: our subscription id, Stripe's, the identity headers. */
async function subscriber() {
  const BUYER = { email: `pg.subscriber${++buyers}@example.com`, phone: null, device: 'fp-pg-subscriber' };
  const product = await shop.api.call('POST', '/developers/products', { key: shop.dev.apiKey, body: { name: 'Pro monthly', price: 900, currency: 'usd', interval: 'month' } });
  const { sessionId } = await shop.checkout({ productId: product.body.id, email: BUYER.email });
  const stripeSession = await shop.stripeId(sessionId);
  fake.markPaid(stripeSession, aPayment({ email: BUYER.email }));
  expect((await deliver(shop.api, fake.completedEvent(stripeSession))).status).toBe(200);
  const stripeId = fake.subscriptionOf(stripeSession);
  const ours = (await shop.api.deps.subscriptions.findByProcessorId(stripeId))!;
  const init = await shop.api.call('POST', '/auth/login/init', { body: { email: BUYER.email } });
  const otp = await loginCode(shop.api.call, init, BUYER);
  const verified = await shop.api.call('POST', '/auth/login/verify', { body: { email: BUYER.email, otpId: init.body.otpId, otp, deviceFingerprint: BUYER.device } });
  expect(verified.status).toBe(200);
  return { id: ours.id, stripeId, email: BUYER.email, headers: customerAuth(verified.body.identityToken, BUYER.device) };
}

describe('buyer cancel and resume on PostgreSQL, 50 at once', () => {
  test('end in one state that Stripe shares, with Stripe called exactly once per change', async () => {
    const s = await subscriber();
    const updates = () => fake.requests.filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${s.stripeId}`).map((r) => r.body.cancel_at_period_end);

    for (let round = 0; round < 3; round++) {
      const replies = await Promise.all(
        // Staggered over a tenth of a second, so some arrive while a change is in flight and some after it.
        Array.from({ length: 50 }, async (_, i) => {
          await Bun.sleep((i % 25) * 4);
          return shop.api.call('POST', `/customer/subscriptions/${s.id}/${i % 2 === 0 ? 'cancel' : 'resume'}`, { headers: s.headers });
        }),
      );

      // Every request is answered: the state it asked for (200), another change in flight (409), or past
      // the subscription's changes for the hour (429: the toggling is bounded, not only serialized).
      for (const reply of replies) expect([200, 409, 429]).toContain(reply.status);
      for (const reply of replies.filter((r) => r.status === 409)) expect(reply.body.error.code).toBe('conflict');
      for (const reply of replies.filter((r) => r.status === 429)) expect(reply.body.error.code).toBe('rate_limited');
      const stored = (await shop.api.deps.subscriptions.findForCustomer((await shop.api.deps.customers.findByEmail(s.email))!.id, s.id))!;
      expect(stored.cancelAtPeriodEnd).toBe(fake.subscription(s.stripeId).cancel_at_period_end);
    }

    // Each call to Stripe changed its state: from false, true and false alternate, never the same twice.
    const sent = updates();
    expect(sent.length).toBeGreaterThan(3);
    expect(sent.length).toBeLessThanOrEqual(10);
    sent.forEach((value, i) => expect(value).toBe(i % 2 === 0 ? 'true' : 'false'));
    expect(fake.subscription(s.stripeId).cancel_at_period_end).toBe(sent.at(-1) === 'true');
  });

  test('a repeat of the state it is in never reaches Stripe; Stripe down records nothing and a retry succeeds', async () => {
    const s = await subscriber();
    const updates = () => fake.requests.filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${s.stripeId}`).length;
    const call = (action: string) => shop.api.call('POST', `/customer/subscriptions/${s.id}/${action}`, { headers: s.headers });

    expect((await Promise.all(Array.from({ length: 20 }, () => call('resume')))).map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(updates()).toBe(0);

    fake.failNext(500, 10);
    expect((await call('cancel')).status).toBe(502);
    fake.failNext(500, 0);
    expect((await call('resume')).body.cancelAtPeriodEnd).toBe(false);
    const canceled = await call('cancel');
    expect(canceled.body).toMatchObject({ cancelAtPeriodEnd: true, nextChargeAt: null, processor: 'stripe' });
    expect(fake.subscription(s.stripeId).cancel_at_period_end).toBe(true);
  });

  test('change card: a Stripe billing-portal session for the subscription’s customer on the seller’s account', async () => {
    const s = await subscriber();

    const reply = await shop.api.call('POST', '/customer/card', { headers: s.headers, body: { subscriptionId: s.id } });

    expect(reply.status).toBe(200);
    const session = fake.portalSessions.at(-1)!;
    expect(reply.body).toEqual({ url: session.url, processor: 'stripe' });
    expect(session).toMatchObject({ customer: fake.subscription(s.stripeId).customer, account: 'acct_1FakeConnected', return_url: expect.stringContaining('/v1/account') });

    fake.failNext(500, 10);
    const down = await shop.api.call('POST', '/customer/card', { headers: s.headers, body: { subscriptionId: s.id } });
    fake.failNext(500, 0);
    expect(down.status).toBe(502);
    expect(down.body.error.code).toBe('processor_error');
  });

  test('orders carry Stripe’s receipt: the first invoice’s hosted page', async () => {
    const s = await subscriber();
    const customer = (await shop.api.deps.customers.findByEmail(s.email))!;
    const first = await shop.api.deps.orders.listByCustomer(customer.id, 10);
    expect(first[0]!.receiptUrl).toMatch(/^https:\/\/invoice\.stripe\.test\/i\/in_test_/);

    shop.api.clock.advance(31 * 86_400_000);
    const renewal = fake.renew(s.stripeId);
    for (const event of renewal.events) expect((await deliver(shop.api, event)).status).toBe(200);
    const renewed = await shop.api.deps.orders.findBySource(renewal.invoiceId);
    expect(renewed!.receiptUrl).toBe(`https://invoice.stripe.test/i/${renewal.invoiceId}`);
  });

  test('a one-off Stripe sale keeps its charge’s receipt_url', async () => {
    const { order } = await shop.stripeSale('pg.oneoff@example.com');
    expect(order.receiptUrl).toMatch(/^https:\/\/pay\.stripe\.test\/receipts\/ch_test_/);
  });
});
