import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import type { Product } from '../../src/domain/product.ts';
import type { SubscriptionTrial } from '../../src/domain/trial.ts';
import { FixedClock } from '../support/clock.ts';
import { CONNECTED_ACCOUNT, startFakeStripe } from '../support/fake-stripe.ts';
import { aProduct, aSession, processorFor, SECRET_KEY, forSale } from './fixtures.ts';

const fake = await startFakeStripe();
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
});

const MINUTE = 60_000;

async function createOne(overrides: Parameters<typeof aSession>[1] = {}, clock = new FixedClock(), sold: { product?: Partial<Product>; trial?: SubscriptionTrial } = {}) {
  const session = aSession(clock.now(), overrides);
  const product = aProduct({ name: 'Pro Edition', id: 'prod_Pro', ...sold.product });
  const result = await processorFor(fake, clock).createCheckout({
    session,
    ...forSale(product, sold.trial ?? null, clock.now()),
    accountId: CONNECTED_ACCOUNT,
    successUrl: 'https://app.example.com/thanks',
    cancelUrl: 'https://app.example.com/cancelled',
  });
  return { session, result, request: fake.requests.at(-1)! };
}

describe('StripeProcessor.createCheckout', () => {
  test('creates a Checkout Session in payment mode whose one line is the product at the session price', async () => {
    const { request } = await createOne({ amount: 4900, currency: 'eur' });

    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/checkout/sessions');
    expect(request.body.mode).toBe('payment');
    expect(request.body.line_items).toEqual([
      {
        price_data: {
          currency: 'eur',
          unit_amount: '4900',
          product_data: { name: 'Pro Edition', description: '€49.00 Perpetual license: it never expires. Includes: pro. Sold by Acme Tools.' },
        },
        quantity: '1',
      },
    ]);
  });

  test('is made on the seller’s connected account, authenticated with the platform key', async () => {
    const { request } = await createOne();

    expect(request.headers['stripe-account']).toBe(CONNECTED_ACCOUNT);
    expect(request.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
  });

  test('carries an idempotency key derived from our session id', async () => {
    const { session, request } = await createOne();

    expect(request.headers['idempotency-key']).toBe(`checkout-create-${session.id}`);
  });

  test('pre-fills the buyer’s e-mail, collects a phone number, creates a customer and saves the card for off-session use', async () => {
    const { request } = await createOne({ email: 'buyer@example.com' });

    expect(request.body.customer_email).toBe('buyer@example.com');
    expect(request.body.phone_number_collection).toEqual({ enabled: 'true' });
    expect(request.body.customer_creation).toBe('always');
    expect(request.body.payment_intent_data).toMatchObject({ setup_future_usage: 'off_session' });
  });

  test('sends no customer_email when checkout was started without one', async () => {
    const { request } = await createOne({ email: null });

    expect(request.body).not.toHaveProperty('customer_email');
    expect(request.body.customer_creation).toBe('always');
  });

  test('ties the Stripe session and its payment back to our session, product and developer', async () => {
    const { session, request } = await createOne();

    expect(request.body.client_reference_id).toBe(session.id);
    expect(request.body.metadata).toEqual({ checkout_session_id: session.id, developer_id: 'dev_Seller' });
    expect((request.body.payment_intent_data as Record<string, unknown>).metadata).toEqual({
      checkout_session_id: session.id,
      product_id: 'prod_Pro',
    });
  });

  test('passes the success and cancel URLs through unchanged', async () => {
    const { request } = await createOne();

    expect(request.body.success_url).toBe('https://app.example.com/thanks');
    expect(request.body.cancel_url).toBe('https://app.example.com/cancelled');
  });

  test('expires_at, in seconds, is at least 31 minutes away: Stripe refuses less than 30 and ours is exactly 30', async () => {
    const clock = new FixedClock(Date.UTC(2026, 0, 1, 12, 0, 0, 500));
    const { session, request } = await createOne({}, clock);

    const expiresAt = Number(request.body.expires_at);
    expect(Number.isInteger(expiresAt)).toBe(true);
    expect(expiresAt).toBeGreaterThanOrEqual(Math.ceil(session.expiresAt / 1000));
    expect(expiresAt).toBeGreaterThanOrEqual(Math.ceil(clock.now() / 1000) + 30 * 60);
    expect(expiresAt).toBe(Math.ceil(clock.now() / 1000) + 31 * 60);
  });

  test('expires_at follows our session when it ends later than Stripe’s minimum', async () => {
    const clock = new FixedClock();
    const { session, request } = await createOne({ expiresAt: clock.now() + 45 * MINUTE + 250 }, clock);

    expect(Number(request.body.expires_at)).toBe(Math.ceil(session.expiresAt / 1000));
  });

  test('a monthly product with a trial: subscription mode, Stripe bills nothing for the trial’s days, and its page says so', async () => {
    const clock = new FixedClock(Date.UTC(2026, 10, 27, 12));
    const trial = { days: 14, end: Date.UTC(2026, 11, 11, 12) };
    const { request } = await createOne({ amount: 900, currency: 'usd' }, clock, { product: { price: 900, currency: 'usd', interval: 'month', trialDays: 14, features: [] }, trial });

    expect(request.body.mode).toBe('subscription');
    expect(request.body.subscription_data).toMatchObject({ trial_period_days: '14' });
    const line = (request.body.line_items as any)[0].price_data;
    expect(line.recurring).toEqual({ interval: 'month' });
    expect(line.product_data.description).toBe(
      '$9.00 / month Free trial: 14 days, until 11 December 2026. Nothing is charged today. ' +
        'First charge: $9.00 on 11 December 2026, when the trial ends; then $9.00 every month, next on 11 January 2027. ' +
        'Cancel before 11 December 2026 and nothing is charged: the license ends with the trial. Sold by Acme Tools.',
    );
    expect((request.body.custom_text as any).submit.message).toContain('Sold by Acme Tools.');
    expect((request.body.custom_text as any).submit.message).toContain('Free trial: 14 days, until 11 December 2026.');
  });

  test('a monthly product without a trial: no trial days, the first renewal date a month on', async () => {
    const clock = new FixedClock(Date.UTC(2026, 0, 31, 9));
    const { request } = await createOne({ amount: 900, currency: 'usd' }, clock, { product: { price: 900, currency: 'usd', interval: 'month', features: [] } });

    expect(request.body.subscription_data).not.toHaveProperty('trial_period_days');
    expect((request.body.line_items as any)[0].price_data.product_data.description).toContain(
      '$9.00 / month $9.00 today, then every month: the first renewal is on 28 February 2026.',
    );
  });

  test('returns Stripe’s session id and hosted page URL', async () => {
    const { result } = await createOne();

    expect(result.processorSessionId).toStartWith('cs_test_');
    expect(result.url).toBe(`https://checkout.stripe.test/c/pay/${result.processorSessionId}`);
  });

  test('creating the same session twice yields the same Stripe session, under the same key', async () => {
    const clock = new FixedClock();
    const session = aSession(clock.now());
    const input = { session, ...forSale(aProduct()), accountId: CONNECTED_ACCOUNT, successUrl: 'https://a.example/s', cancelUrl: 'https://a.example/c' };
    const processor = processorFor(fake, clock);

    const first = await processor.createCheckout(input);
    const second = await processor.createCheckout(input);

    expect(second).toEqual(first);
    expect(fake.requests.map((r) => r.headers['idempotency-key'])).toEqual([`checkout-create-${session.id}`, `checkout-create-${session.id}`]);
  });
});
