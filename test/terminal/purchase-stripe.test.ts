import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { CONNECTED_ACCOUNT, startFakeStripe, stripeEvent } from '../support/fake-stripe.ts';
import { deliver, SECRET_KEY } from '../checkout/shop.ts';
import { openPurchaseShop } from './purchase-modes.ts';
import { expectError } from './terminal.ts';

const fake = await startFakeStripe();
afterAll(() => fake.stop());
beforeEach(() => {
  fake.intents.length = 0;
  fake.requests.length = 0;
});

/** Ada bought once with Stripe Checkout (her card saved on the seller's account) and logged in. */
async function ready() {
  const shop = await openPurchaseShop('stripe', fake);
  await shop.saveCard('pays');
  const token = await shop.t.login();
  const plus = await shop.t.anotherProduct('Pro Plus', 2999);
  const cardRow = () => shop.t.store.sqlite.query("SELECT processor_payment_method_id AS pm FROM saved_cards WHERE last4 = '4242'").get() as { pm: string };
  return { ...shop, token, plus, paymentMethod: cardRow().pm };
}

const intentRequests = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');

describe('terminal purchase with Stripe: the off-session PaymentIntent', () => {
  test('one PaymentIntent on the seller’s connected account, confirmed off-session on the saved card, for the product’s price', async () => {
    const { t, token, plus, paymentMethod } = await ready();
    const p = await t.purchase(token, plus.id);

    const reply = await t.purchaseConfirm(token, { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code, cardId: p.cards[0]!.id });

    expect(reply.status).toBe(200);
    const [request] = intentRequests();
    expect(intentRequests()).toHaveLength(1);
    expect(request!.headers['stripe-account']).toBe(CONNECTED_ACCOUNT);
    expect(request!.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(request!.body).toMatchObject({
      amount: '2999',
      currency: 'usd',
      customer: 'cus_ada',
      payment_method: paymentMethod,
      off_session: 'true',
      confirm: 'true',
      metadata: { purchase_id: p.purchaseId, product_id: plus.id },
    });
  });

  test('the idempotency key is purchase-<id>-<attempt>: purchase-<id>-1 for the first charge', async () => {
    const { t, token, plus } = await ready();
    const p = await t.purchase(token, plus.id);

    await t.purchaseConfirm(token, { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code, cardId: p.cards[0]!.id });

    expect(intentRequests()[0]!.headers['idempotency-key']).toBe(`purchase-${p.purchaseId}-1`);
    expect(fake.intents).toEqual([expect.objectContaining({ account: CONNECTED_ACCOUNT, idempotencyKey: `purchase-${p.purchaseId}-1`, status: 'succeeded' })]);
  });

  test('a decline, then another card: the second charge is attempt 2 with its own key', async () => {
    const { t, token, plus, saveCard, cardOf } = await ready();
    await saveCard('declines');
    const p = await t.purchase(token, plus.id);
    const body = { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code };

    const declined = await t.purchaseConfirm(token, { ...body, cardId: cardOf(p.cards, '0341') });
    const paid = await t.purchaseConfirm(token, { ...body, cardId: cardOf(p.cards, '4242') });

    expectError(declined, 402, 'card_declined');
    expect(declined.body.error.details).toMatchObject({ declineCode: 'insufficient_funds' });
    expect(paid.status).toBe(200);
    expect(fake.intents.map((i) => [i.idempotencyKey, i.status])).toEqual([
      [`purchase-${p.purchaseId}-1`, 'requires_payment_method'],
      [`purchase-${p.purchaseId}-2`, 'succeeded'],
    ]);
  });

  test('a declined answer passes on no Stripe secret (no client_secret, no payment intent)', async () => {
    const { t, token, plus, saveCard, cardOf } = await ready();
    await saveCard('declines');
    const p = await t.purchase(token, plus.id);

    const declined = await t.purchaseConfirm(token, { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code, cardId: cardOf(p.cards, '0341') });

    const text = JSON.stringify(declined.body);
    expect(text).not.toContain('secret');
    expect(text).not.toContain('pi_test_');
  });

  test('Stripe failing (500) is not a decline: the attempt stays open and a later retry reuses its idempotency key', async () => {
    const { t, token, plus } = await ready();
    const p = await t.purchase(token, plus.id);
    const body = { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code, cardId: p.cards[0]!.id };
    fake.failNext(500, 5);

    const failed = await t.purchaseConfirm(token, body);
    fake.failNext(500, 0);
    t.clock.advance(61_000);
    const retried = await t.purchaseConfirm(token, body);

    expectError(failed, 502, 'processor_error');
    expect(retried.status).toBe(200);
    expect(new Set(intentRequests().map((r) => r.headers['idempotency-key']))).toEqual(new Set([`purchase-${p.purchaseId}-1`]));
    expect(fake.intents).toHaveLength(1);
  });
});

describe('a refund of a terminal purchase', () => {
  test('charge.refunded for the purchase’s PaymentIntent revokes that license, and only that one', async () => {
    const { t, token, plus } = await ready();
    const p = await t.purchase(token, plus.id);
    const confirmed = await t.purchaseConfirm(token, { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code, cardId: p.cards[0]!.id });
    const paymentIntent = fake.intents[0]!.id;
    const { otpId, code } = await t.challenge();
    const before = (await t.loginVerify({ otpId, otp: code })).body.licenses as { id: string; licenseKey: string }[];

    const refund = stripeEvent('charge.refunded', { id: 'ch_refunded', object: 'charge', refunded: true, payment_intent: paymentIntent }, CONNECTED_ACCOUNT);
    expect((await deliver(t.api, refund)).status).toBe(200);

    expect((await t.validate(confirmed.body.licenseKey)).body).toMatchObject({ valid: false, reason: 'revoked' });
    const bought = before.find((l) => l.id !== confirmed.body.license.id)!;
    expect((await t.validate(bought.licenseKey)).body).toMatchObject({ valid: true });
  });
});
