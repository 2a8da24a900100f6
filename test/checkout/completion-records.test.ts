import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { completeCheckout } from '../../src/app/checkout/complete-checkout.ts';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.ts';
import { aCompletion, aPayment, completedEvent, connectedShop, deliver, type Shop } from './shop.ts';

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(() => fake.stop());

/** The buyer a completed session was sold to, and the cards they saved with this seller. */
async function buyerOf(shop: Shop, sessionId: string) {
  const session = await shop.api.deps.checkouts.findById(sessionId);
  const customer = await shop.api.deps.customers.findById(session!.customerId!);
  const cards = await shop.api.deps.cards.listFor(customer!.id, shop.dev.id);
  return { customer: customer!, cards };
}

describe('a Stripe completion records the buyer', () => {
  test('the customer’s e-mail and phone, and the saved card’s brand, last4 and expiry, from what Stripe reports', async () => {
    const shop = await connectedShop({ fake });
    const { sessionId } = await shop.checkout();
    const stripeId = await shop.stripeId(sessionId);
    fake.markPaid(stripeId, aPayment({
      email: 'Ada@Example.com',
      phone: '+447700900123',
      customerId: 'cus_StripeAda',
      card: { id: 'pm_AdaCard', brand: 'mastercard', last4: '4444', expMonth: 11, expYear: 2031 },
    }));

    await deliver(shop.api, completedEvent(stripeId, sessionId));

    const { customer, cards } = await buyerOf(shop, sessionId);
    // The checkout's phone is no sign-in factor: it stays with the saved card (docs/customers.md).
    expect(customer).toMatchObject({ email: 'ada@example.com', phone: null, phoneVerifiedAt: null });
    expect(cards.map((c) => c.phone)).toEqual(['+447700900123']);
    expect(cards).toEqual([
      expect.objectContaining({
        brand: 'mastercard', last4: '4444', expMonth: 11, expYear: 2031,
        processorPaymentMethodId: 'pm_AdaCard', processorCustomerId: 'cus_StripeAda', developerId: shop.dev.id,
      }),
    ]);
  });

  test('the same details when the completion arrives through a reconciling poll instead of the webhook', async () => {
    const shop = await connectedShop({ fake });
    const { sessionId } = await shop.checkout();
    fake.markPaid(await shop.stripeId(sessionId), aPayment({ phone: '+15550199999', card: { id: 'pm_Poll', brand: 'amex', last4: '0005', expMonth: 1, expYear: 2029 } }));

    await shop.status(sessionId);

    const { customer, cards } = await buyerOf(shop, sessionId);
    expect(customer.phone).toBeNull();
    expect(cards.map((c) => c.phone)).toEqual(['+15550199999']);
    expect(cards.map(({ brand, last4, expMonth, expYear }) => ({ brand, last4, expMonth, expYear }))).toEqual([{ brand: 'amex', last4: '0005', expMonth: 1, expYear: 2029 }]);
  });

  test('a Stripe payment without a card (no payment method reported) still issues the license, saving no card', async () => {
    const shop = await connectedShop({ fake });
    const { sessionId } = await shop.checkout();
    fake.markPaid(await shop.stripeId(sessionId), aPayment({ card: null }));
    await deliver(shop.api, completedEvent(await shop.stripeId(sessionId), sessionId));
    expect((await shop.status(sessionId)).body.status).toBe('complete');
    expect((await buyerOf(shop, sessionId)).cards).toEqual([]);
  });
});

describe('a sandbox completion records the buyer the same way', () => {
  test('phone and card saved for the customer with this seller', async () => {
    const shop = await connectedShop();
    const { sessionId } = await shop.checkout();

    await completeCheckout(shop.api.deps, sessionId, aCompletion({ phone: '+15550100042' }));

    const { customer, cards } = await buyerOf(shop, sessionId);
    expect(customer).toMatchObject({ email: 'buyer@example.com', phone: null, phoneVerifiedAt: null });
    expect(cards).toEqual([expect.objectContaining({ brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, phone: '+15550100042' })]);
  });

  test('a returning buyer (same e-mail) is the same customer; no checkout sets a sign-in phone, and the card keeps its first phone, not duplicated', async () => {
    const shop = await connectedShop();
    const first = await shop.checkout();
    const second = await shop.checkout();

    await completeCheckout(shop.api.deps, first.sessionId, aCompletion({ phone: '+15550100001' }));
    await completeCheckout(shop.api.deps, second.sessionId, aCompletion({ email: 'BUYER@example.com', phone: '+15550100002' }));

    const a = await buyerOf(shop, first.sessionId);
    const b = await buyerOf(shop, second.sessionId);
    expect(b.customer.id).toBe(a.customer.id);
    expect(b.customer.phone).toBeNull();
    expect(b.cards).toHaveLength(1);
    expect(b.cards[0]!.phone).toBe('+15550100001');
    expect((await shop.licensesOfBuyer(second.sessionId)).length).toBe(2);
  });

  test('the e-mail given at init is used when the payment reports none', async () => {
    const shop = await connectedShop();
    const { sessionId } = await shop.checkout({ email: 'init@example.com' });
    await completeCheckout(shop.api.deps, sessionId, aCompletion({ email: '' }));
    expect((await buyerOf(shop, sessionId)).customer.email).toBe('init@example.com');
  });
});
