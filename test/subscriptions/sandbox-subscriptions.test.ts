import { describe, expect, test } from 'bun:test';
import { connectedShop } from '../checkout/shop.ts';
import { seller } from '../support/http.ts';
import { periodEndAfter } from '../../src/domain/subscription.ts';

const DAY = 86_400_000;

/** A sandbox shop (FixedClock) selling a monthly product, and a buyer who paid for it with `cardNumber`. */
async function sandboxSubscriber(cardNumber = '4242 4242 4242 4242') {
  const shop = await connectedShop();
  const product = await shop.api.call('POST', '/developers/products', {
    key: shop.dev.apiKey,
    body: { name: 'Pro monthly', price: 900, currency: 'usd', features: ['pro'], interval: 'month' },
  });
  const { sessionId } = await shop.checkout({ productId: product.body.id });
  const paidAt = shop.clock.now();
  const form = new URLSearchParams({ email: 'buyer@example.com', phone: '+15550100000', cardNumber });
  const pay = await shop.api.call('POST', `/sandbox/checkout/${sessionId}/pay`, { rawBody: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  if (pay.status !== 303) throw new Error(`pay: ${pay.status} ${JSON.stringify(pay.body)}`);
  const { licenseKey, license } = (await shop.status(sessionId)).body;
  const advance = (advanceDays: number, key = shop.dev.apiKey) => shop.api.call('POST', '/sandbox/clock', { key, body: { advanceDays } });
  const subscription = () => shop.api.deps.subscriptions.findByLicense(license.id);
  return { shop, paidAt, licenseKey: licenseKey as string, license, advance, subscription };
}

describe('sandbox subscriptions and the sandbox billing clock', () => {
  test('Pay on a monthly product starts a sandbox subscription: the license lasts a month from the payment plus 3 days', async () => {
    const { paidAt, license, subscription } = await sandboxSubscriber();

    const firstEnd = periodEndAfter(paidAt, 'month');
    expect(license.expiresAt).toBe(firstEnd + 3 * DAY);
    expect(await subscription()).toMatchObject({ processor: 'sandbox', status: 'active', currentPeriodEnd: firstEnd, interval: 'month' });
  });

  test('moving the clock past the period renews: the old key validates and hands over the new one', async () => {
    const { shop, paidAt, licenseKey, license, advance } = await sandboxSubscriber();

    const reply = await advance(32);

    expect(reply.status).toBe(200);
    expect(reply.body.billed).toEqual([{ subscriptionId: license.subscriptionId ?? expect.any(String), outcome: 'renewed', periods: 1 }]);
    const secondEnd = periodEndAfter(periodEndAfter(paidAt, 'month'), 'month');
    const validation = await shop.validate(licenseKey);
    expect(validation.body).toMatchObject({ valid: true, license: { expiresAt: secondEnd + 3 * DAY } });
    expect(validation.body.license.licenseKey).not.toBe(licenseKey);
    expect((await advance(0)).body.billed).toEqual([]);
  });

  test('a card saved as 4000 0000 0000 0341 fails the renewal: past_due, and the license expires after its grace days', async () => {
    const { shop, paidAt, licenseKey, advance, subscription } = await sandboxSubscriber('4000 0000 0000 0341');

    expect((await advance(32)).body.billed).toMatchObject([{ outcome: 'payment_failed', periods: 0 }]);

    expect(await subscription()).toMatchObject({ status: 'past_due' });
    shop.clock.time = periodEndAfter(paidAt, 'month') + 3 * DAY;
    expect((await shop.validate(licenseKey)).body).toEqual({ valid: false, reason: 'expired' });
  });

  test('a subscription cancelled at period end ends when the clock reaches it, and its license runs to its end', async () => {
    const { shop, license, advance, subscription } = await sandboxSubscriber();
    const sub = (await subscription())!;
    await shop.api.deps.subscriptions.update(sub.processorSubscriptionId, { cancelAtPeriodEnd: true, asOf: shop.clock.now() });

    expect((await advance(40)).body.billed).toMatchObject([{ outcome: 'canceled' }]);

    expect(await subscription()).toMatchObject({ status: 'canceled' });
    expect((await shop.api.deps.licenses.findById(license.id))!.expiresAt).toBe(license.expiresAt);
  });

  test('one developer’s clock never bills another developer’s subscriptions', async () => {
    const { shop, advance, subscription } = await sandboxSubscriber();
    const other = { dev: await seller(shop.api) };

    const reply = await advance(400, other.dev.apiKey);

    expect(reply.body.billed).toEqual([]);
    expect((await subscription())!.status).toBe('active');
  });

  test('a bad advanceDays is a 400 naming the field; without a secret key it is 401', async () => {
    const { shop, advance } = await sandboxSubscriber();

    const bad = await advance(-1);
    const anonymous = await shop.api.call('POST', '/sandbox/clock', { body: { advanceDays: 1 } });

    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
    expect(anonymous.status).toBe(401);
  });
});
