import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { CONNECTED_ACCOUNT, startFakeStripe, stripeEvent, type FakeStripe } from '../support/fake-stripe.ts';
import { expectError } from '../http/fixtures.ts';
import { aPayment, completedEvent, connectedShop, deliver, sessionObject } from './shop.ts';

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(() => fake.stop());

/** A Stripe shop with one pending session; `pay` marks it paid at Stripe under a known PaymentIntent. */
async function pendingSession() {
  const shop = await connectedShop({ fake });
  const { sessionId } = await shop.checkout();
  const stripeId = await shop.stripeId(sessionId);
  const payment = aPayment();
  const pay = () => fake.markPaid(stripeId, payment);
  return { shop, sessionId, stripeId, paymentIntentId: payment.paymentIntentId, pay };
}

/** …and completed by its checkout.session.completed event. */
async function completedSession() {
  const s = await pendingSession();
  s.pay();
  await deliver(s.shop.api, completedEvent(s.stripeId, s.sessionId));
  const { licenseKey, license } = (await s.shop.status(s.sessionId)).body;
  return { ...s, licenseKey: licenseKey as string, licenseId: license.id as string };
}

const expiredEvent = (stripeId: string, sessionId: string) =>
  stripeEvent('checkout.session.expired', sessionObject(stripeId, sessionId, { status: 'expired', payment_status: 'unpaid' }), CONNECTED_ACCOUNT);
const charge = (paymentIntentId: string) => ({ id: 'ch_1', object: 'charge', payment_intent: paymentIntentId, refunded: true });
const dispute = (paymentIntentId: string, status: string) => ({ id: 'dp_1', object: 'dispute', payment_intent: paymentIntentId, status });

describe('checkout events, in any order', () => {
  test('checkout.session.async_payment_succeeded completes the session too', async () => {
    const { shop, sessionId, stripeId, pay } = await pendingSession();
    pay();
    await deliver(shop.api, completedEvent(stripeId, sessionId, 'checkout.session.async_payment_succeeded'));
    expect((await shop.status(sessionId)).body.status).toBe('complete');
  });

  test('checkout.session.expired after completed leaves the session complete, its license active', async () => {
    const { shop, sessionId, stripeId, licenseKey } = await completedSession();
    expect((await deliver(shop.api, expiredEvent(stripeId, sessionId))).status).toBe(200);
    expect((await shop.status(sessionId)).body.status).toBe('complete');
    expect((await shop.validate(licenseKey)).body.valid).toBe(true);
  });

  test('checkout.session.expired of a pending session makes it expired before its 30 minutes', async () => {
    const { shop, sessionId, stripeId } = await pendingSession();
    await deliver(shop.api, expiredEvent(stripeId, sessionId));
    expect((await shop.status(sessionId)).body).toEqual({ status: 'expired' });
  });

  test('expired, then completed (paid after all): complete, with a license', async () => {
    const { shop, sessionId, stripeId, pay } = await pendingSession();
    await deliver(shop.api, expiredEvent(stripeId, sessionId));
    pay();
    await deliver(shop.api, completedEvent(stripeId, sessionId));
    const status = (await shop.status(sessionId)).body;
    expect(status.status).toBe('complete');
    expect((await shop.validate(status.licenseKey)).body.valid).toBe(true);
  });

  test('a completed event for a session that is not ours is 200 and creates nothing', async () => {
    const shop = await connectedShop({ fake });
    const reply = await deliver(shop.api, completedEvent('cs_test_notOurs', 'cs_notOursEither'));
    expect(reply.body).toEqual({ received: true });
    const licenses = shop.store.sqlite.query('SELECT count(*) AS n FROM licenses').get() as { n: number };
    expect(licenses.n).toBe(0);
  });

  test('a completed event naming our session but another Stripe session does not complete ours', async () => {
    const { shop, sessionId, pay } = await pendingSession();
    pay();
    expect((await deliver(shop.api, completedEvent('cs_test_someoneElses', sessionId))).status).toBe(200);
    expect((await shop.api.deps.checkouts.findById(sessionId))?.licenseId).toBeNull();
  });
});

describe('money taken back revokes the license it paid for', () => {
  test('charge.refunded: the license validates as revoked', async () => {
    const { shop, paymentIntentId, licenseKey } = await completedSession();
    expect((await deliver(shop.api, stripeEvent('charge.refunded', charge(paymentIntentId), CONNECTED_ACCOUNT))).status).toBe(200);
    expect((await shop.validate(licenseKey)).body).toEqual({ valid: false, reason: 'revoked' });
  });

  test('charge.dispute.closed, lost: revoked', async () => {
    const { shop, paymentIntentId, licenseKey } = await completedSession();
    await deliver(shop.api, stripeEvent('charge.dispute.closed', dispute(paymentIntentId, 'lost'), CONNECTED_ACCOUNT));
    expect((await shop.validate(licenseKey)).body).toEqual({ valid: false, reason: 'revoked' });
  });

  test('charge.dispute.closed, won: the license stays active', async () => {
    const { shop, paymentIntentId, licenseKey } = await completedSession();
    await deliver(shop.api, stripeEvent('charge.dispute.closed', dispute(paymentIntentId, 'won'), CONNECTED_ACCOUNT));
    expect((await shop.validate(licenseKey)).body.valid).toBe(true);
  });

  test('a refund of some other payment revokes nothing of ours', async () => {
    const { shop, licenseKey } = await completedSession();
    await deliver(shop.api, stripeEvent('charge.refunded', charge('pi_unrelated'), CONNECTED_ACCOUNT));
    expect((await shop.validate(licenseKey)).body.valid).toBe(true);
  });
});

describe('account and unknown events', () => {
  test('account.application.deauthorized: the seller is disconnected and init is 409 not_connected', async () => {
    const shop = await connectedShop({ fake });
    const reply = await deliver(shop.api, stripeEvent('account.application.deauthorized', { id: 'ca_app', object: 'application' }, CONNECTED_ACCOUNT));
    expect(reply.body).toEqual({ received: true });
    expect(await shop.connectStatus()).toEqual({ connected: false });
    expectError(await shop.init(), 409, 'not_connected');
  });

  test('an event type the service does not handle is 200 and changes nothing', async () => {
    const { shop, sessionId, stripeId, pay } = await pendingSession();
    pay();
    const reply = await deliver(shop.api, stripeEvent('customer.subscription.created', sessionObject(stripeId, sessionId), CONNECTED_ACCOUNT));
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ received: true });
    expect((await shop.api.deps.checkouts.findById(sessionId))?.licenseId).toBeNull();
    expect((await shop.connectStatus()).connected).toBe(true);
  });
});
