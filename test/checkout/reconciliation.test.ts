import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { RECONCILE_EVERY_MS } from '../../src/app/checkout/checkout-status.ts';
import { CHECKOUT_LIFETIME_MS } from '../../src/domain/checkout-session.ts';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.ts';
import { aPayment, connectedShop, retrievalsOf } from './shop.ts';

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterEach(() => fake.failNext(500, 0));
afterAll(() => fake.stop());

async function stripeSession() {
  const shop = await connectedShop({ fake });
  const { sessionId } = await shop.checkout();
  const stripeId = await shop.stripeId(sessionId);
  return { shop, sessionId, stripeId, asked: () => retrievalsOf(fake, stripeId) };
}

describe('a status poll reconciles with Stripe when the webhook never comes', () => {
  test('paid at Stripe, no webhook: the next poll completes the session and the buyer gets a license', async () => {
    const { shop, sessionId, stripeId } = await stripeSession();
    fake.markPaid(stripeId, aPayment());

    const reply = await shop.status(sessionId);

    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe('complete');
    expect((await shop.validate(reply.body.licenseKey)).body.valid).toBe(true);
  });

  test('the lookup asks Stripe on the seller’s connected account', async () => {
    const { shop, sessionId, stripeId } = await stripeSession();
    await shop.status(sessionId);
    const lookup = fake.requests.find((r) => r.method === 'GET' && r.path.endsWith(stripeId))!;
    expect(lookup.headers['stripe-account']).toBe((await shop.connectStatus()).accountId);
  });

  test('expired at Stripe: the poll answers expired, even before our 30 minutes', async () => {
    const { shop, sessionId, stripeId } = await stripeSession();
    fake.markExpired(stripeId);
    expect((await shop.status(sessionId)).body).toEqual({ status: 'expired' });
  });

  test('still open at Stripe: pending', async () => {
    const { shop, sessionId } = await stripeSession();
    expect((await shop.status(sessionId)).body).toEqual({ status: 'pending' });
  });
});

describe('reconciliation is throttled: at most one Stripe lookup per session every 10 s', () => {
  test('a second poll within 10 s does not call Stripe; one at 10 s does', async () => {
    const { shop, sessionId, asked } = await stripeSession();
    await shop.status(sessionId);
    expect(asked()).toBe(1);

    shop.clock.advance(RECONCILE_EVERY_MS - 1);
    await shop.status(sessionId);
    await shop.status(sessionId);
    expect(asked()).toBe(1);

    shop.clock.advance(1);
    await shop.status(sessionId);
    expect(asked()).toBe(2);
  });

  test('a payment made between lookups is found at the next lookup, not before', async () => {
    const { shop, sessionId, stripeId } = await stripeSession();
    await shop.status(sessionId);
    fake.markPaid(stripeId, aPayment());

    shop.clock.advance(RECONCILE_EVERY_MS - 1);
    expect((await shop.status(sessionId)).body).toEqual({ status: 'pending' });
    shop.clock.advance(1);
    expect((await shop.status(sessionId)).body.status).toBe('complete');
  });

  test('a complete session is answered from our records: no more lookups', async () => {
    const { shop, sessionId, stripeId, asked } = await stripeSession();
    fake.markPaid(stripeId, aPayment());
    await shop.status(sessionId);
    const after = asked();
    shop.clock.advance(RECONCILE_EVERY_MS * 3);
    await shop.status(sessionId);
    expect(asked()).toBe(after);
  });

  test('an expired session is not looked up again', async () => {
    const { shop, sessionId, asked } = await stripeSession();
    shop.clock.advance(CHECKOUT_LIFETIME_MS);
    await shop.status(sessionId);
    const after = asked();
    shop.clock.advance(RECONCILE_EVERY_MS);
    expect((await shop.status(sessionId)).body).toEqual({ status: 'expired' });
    expect(asked()).toBe(after);
  });
});

describe('the edge of the 30 minutes', () => {
  // Paid at 29:57, a lookup at 29:55 said open, the webhook is lost: the 30:00 poll falls inside the
  // throttle and stores "expired". A paid buyer must not be stranded by that: some later poll finds the payment.
  test('a payment made just before expiry, inside the throttle window, is still found by a later poll', async () => {
    const { shop, sessionId, stripeId } = await stripeSession();
    shop.clock.advance(CHECKOUT_LIFETIME_MS - 5_000);
    expect((await shop.status(sessionId)).body).toEqual({ status: 'pending' });
    shop.clock.advance(2_000);
    fake.markPaid(stripeId, aPayment());

    const answers: string[] = [];
    for (const step of [3_000, RECONCILE_EVERY_MS, RECONCILE_EVERY_MS]) {
      shop.clock.advance(step);
      answers.push((await shop.status(sessionId)).body.status);
    }

    expect(answers.at(-1)).toBe('complete');
  });
});

describe('Stripe unreachable during a poll', () => {
  test('Stripe answering 500: the poll still answers 200 pending, never a 5xx', async () => {
    const { shop, sessionId, stripeId } = await stripeSession();
    fake.markPaid(stripeId, aPayment());
    fake.failNext(500, 10);

    const reply = await shop.status(sessionId);

    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'pending' });
  });

  test('once Stripe is back, the next lookup after the throttle completes the session', async () => {
    const { shop, sessionId, stripeId } = await stripeSession();
    fake.markPaid(stripeId, aPayment());
    fake.failNext(500, 10);
    await shop.status(sessionId);
    fake.failNext(500, 0);

    shop.clock.advance(RECONCILE_EVERY_MS);

    expect((await shop.status(sessionId)).body.status).toBe('complete');
  });
});
