import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { FixedClock } from '../support/clock.ts';
import { CONNECTED_ACCOUNT, startFakeStripe } from '../support/fake-stripe.ts';
import { aProduct, aSession, processorFor, rejectionOf, forSale } from './fixtures.ts';

const fake = await startFakeStripe();
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
});

const processor = processorFor(fake, new FixedClock());

async function stripeSession(): Promise<string> {
  const { processorSessionId } = await processor.createCheckout({
    session: aSession(Date.now()),
    ...forSale(aProduct()),
    accountId: CONNECTED_ACCOUNT,
    successUrl: 'https://a.example/s',
    cancelUrl: 'https://a.example/c',
  });
  fake.requests.length = 0;
  return processorSessionId;
}

const PAID = {
  email: 'payer@example.com',
  phone: '+33612345678',
  customerId: 'cus_Buyer',
  paymentIntentId: 'pi_Paid',
  card: { id: 'pm_Card', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 },
};

describe('StripeProcessor.retrieveCheckout', () => {
  test('an unpaid session is open', async () => {
    const id = await stripeSession();

    expect(await processor.retrieveCheckout(id, CONNECTED_ACCOUNT)).toEqual({ state: 'open' });
  });

  test('is asked on the connected account, expanding the payment method, the charge (its receipt) and the customer', async () => {
    const id = await stripeSession();

    await processor.retrieveCheckout(id, CONNECTED_ACCOUNT);

    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: `/v1/checkout/sessions/${id}` });
    expect(fake.requests[0]!.headers['stripe-account']).toBe(CONNECTED_ACCOUNT);
    expect(fake.requests[0]!.query.expand).toEqual(['payment_intent.payment_method', 'payment_intent.latest_charge', 'customer']);
  });

  test('a paid session yields who paid, the payment, the saved card and the charge’s receipt', async () => {
    const id = await stripeSession();
    fake.markPaid(id, PAID);

    const result = await processor.retrieveCheckout(id, CONNECTED_ACCOUNT);

    expect(result).toEqual({
      state: 'paid',
      completion: {
        email: 'payer@example.com',
        phone: '+33612345678',
        processorCustomerId: 'cus_Buyer',
        paymentId: 'pi_Paid',
        card: { processorPaymentMethodId: 'pm_Card', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 },
        receiptUrl: expect.stringMatching(/^https:\/\/pay\.stripe\.test\/receipts\/ch_test_/),
      },
    });
  });

  test('a paid session without a card payment method has card null and no phone when none was given', async () => {
    const id = await stripeSession();
    fake.markPaid(id, { ...PAID, phone: null, card: null });

    const result = await processor.retrieveCheckout(id, CONNECTED_ACCOUNT);

    expect(result).toMatchObject({ state: 'paid', completion: { phone: null, card: null, paymentId: 'pi_Paid' } });
  });

  test('an expired session is expired', async () => {
    const id = await stripeSession();
    fake.markExpired(id);

    expect(await processor.retrieveCheckout(id, CONNECTED_ACCOUNT)).toEqual({ state: 'expired' });
  });

  test('a session looked up on another account is a processor_error, not a silent open', async () => {
    const id = await stripeSession();

    const error = await rejectionOf(() => processor.retrieveCheckout(id, 'acct_SomeoneElse'));

    expect(error.code).toBe('processor_error');
    expect(error.details).toMatchObject({ processor: 'stripe', code: 'resource_missing', status: 404 });
  });
});
