import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { CONNECTED_ACCOUNT, startFakeStripe } from '../support/fake-stripe.ts';
import { aCharge, processorFor, rejectionOf, SECRET_KEY } from './fixtures.ts';

const fake = await startFakeStripe();
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  fake.intents.length = 0;
});

const processor = processorFor(fake);

async function chargeOnce(overrides: Parameters<typeof aCharge>[0] = {}) {
  const charge = aCharge(overrides);
  const result = await processor.chargeSavedCard(charge);
  return { charge, result, request: fake.requests.at(-1)! };
}

describe('StripeProcessor.chargeSavedCard sends', () => {
  test('one PaymentIntent, created and confirmed off-session, for the amount and currency on the customer’s saved card', async () => {
    const { request } = await chargeOnce({ amount: 1999, currency: 'usd', processorCustomerId: 'cus_Buyer', processorPaymentMethodId: 'pm_Saved' });

    expect(request).toMatchObject({ method: 'POST', path: '/v1/payment_intents' });
    expect(request.body).toMatchObject({
      amount: '1999',
      currency: 'usd',
      customer: 'cus_Buyer',
      payment_method: 'pm_Saved',
      off_session: 'true',
      confirm: 'true',
    });
  });

  test('the description and metadata unchanged, so the payment can be traced to the purchase', async () => {
    const { request } = await chargeOnce({ description: 'Pro Edition', metadata: { purchase_id: 'pur_42', product_id: 'prod_Pro' } });

    expect(request.body.description).toBe('Pro Edition');
    expect(request.body.metadata).toEqual({ purchase_id: 'pur_42', product_id: 'prod_Pro' });
  });

  test('no redirect-based methods: nobody is present to follow a redirect, so Stripe needs no return_url', async () => {
    const { request } = await chargeOnce();

    expect(request.body.automatic_payment_methods).toEqual({ enabled: 'true', allow_redirects: 'never' });
    expect(request.body).not.toHaveProperty('return_url');
  });

  test('no customer parameter when the card is known without a customer', async () => {
    const { request } = await chargeOnce({ processorCustomerId: null });

    expect(request.body).not.toHaveProperty('customer');
    expect(request.body.payment_method).toBe('pm_Saved');
  });

  test('on the seller’s connected account, authenticated with the platform key', async () => {
    const { request } = await chargeOnce({ accountId: CONNECTED_ACCOUNT });

    expect(request.headers['stripe-account']).toBe(CONNECTED_ACCOUNT);
    expect(request.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
  });

  test('the caller’s idempotency key, unchanged', async () => {
    const { request } = await chargeOnce({ idempotencyKey: 'purchase-charge-pur_42-1' });

    expect(request.headers['idempotency-key']).toBe('purchase-charge-pur_42-1');
  });
});

describe('StripeProcessor.chargeSavedCard pays', () => {
  test('a succeeded intent is the payment: its id is the payment id', async () => {
    const { result } = await chargeOnce();

    expect(fake.intents).toHaveLength(1);
    expect(fake.intents[0]!.status).toBe('succeeded');
    expect(result).toEqual({ paymentId: fake.intents[0]!.id });
    expect(result.paymentId).toStartWith('pi_test_');
  });

  test('the same key twice charges once and names the same payment', async () => {
    const charge = aCharge();

    const first = await processor.chargeSavedCard(charge);
    const second = await processor.chargeSavedCard(charge);

    expect(second).toEqual(first);
    expect(fake.intents).toHaveLength(1);
    expect(fake.requests.map((r) => r.headers['idempotency-key'])).toEqual([charge.idempotencyKey, charge.idempotencyKey]);
  });

  test('the same key sent concurrently charges once and every caller gets the same payment', async () => {
    const charge = aCharge();

    const results = await Promise.all(Array.from({ length: 8 }, () => processor.chargeSavedCard(charge)));

    expect(fake.intents).toHaveLength(1);
    expect(new Set(results.map((r) => r.paymentId))).toEqual(new Set([fake.intents[0]!.id]));
  });

  test('different keys are different charges', async () => {
    const first = await processor.chargeSavedCard(aCharge({ idempotencyKey: 'purchase-charge-pur_1-1' }));
    const second = await processor.chargeSavedCard(aCharge({ idempotencyKey: 'purchase-charge-pur_1-2' }));

    expect(second.paymentId).not.toBe(first.paymentId);
    expect(fake.intents).toHaveLength(2);
  });

  test('a transient 500 is retried by the SDK under the same key and charges once', async () => {
    const charge = aCharge();
    fake.failNext(500, 1);

    const result = await processor.chargeSavedCard(charge);

    expect(result.paymentId).toBe(fake.intents[0]!.id);
    expect(fake.intents).toHaveLength(1);
    expect(fake.requests.map((r) => r.headers['idempotency-key'])).toEqual([charge.idempotencyKey, charge.idempotencyKey]);
  });

  test('a key reused with other parameters is processor_error and charges nothing more', async () => {
    const charge = aCharge({ amount: 4900 });
    await processor.chargeSavedCard(charge);

    const error = await rejectionOf(() => processor.chargeSavedCard({ ...charge, amount: 9900 }));

    expect(error.code).toBe('processor_error');
    expect(error.details).toMatchObject({ processor: 'stripe', type: 'StripeIdempotencyError' });
    expect(fake.intents).toHaveLength(1);
  });
});
