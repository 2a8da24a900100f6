import { afterAll, describe, expect, test } from 'bun:test';
import { aPayment } from '../checkout/shop.ts';
import { DAY, deliverAll, startSubscriptionFake, stateOf } from './stripe-shop.ts';
import { licenseEventsOf, ordersOf } from './records.ts';

const { fake, monthlyShop, subscribed } = await startSubscriptionFake();
afterAll(() => fake.stop());

const periodEndOf = (subscriptionId: string) => fake.subscription(subscriptionId).items.data[0].current_period_end * 1000;
const trialEndOf = (subscriptionId: string) => fake.subscription(subscriptionId).trial_end * 1000;
const lastCreate = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').at(-1)!;

describe('a monthly product with a trial, through Stripe Checkout', () => {
  test('Stripe bills nothing for 14 days: the subscription is trialing (ours: active with trialEnd), its license a trial to the trial’s end, no order', async () => {
    const { shop, subscriptionId, licenseId, send } = await subscribed({ trialDays: 14 });

    expect(lastCreate().body.subscription_data).toMatchObject({ trial_period_days: '14' });
    expect(fake.subscription(subscriptionId).status).toBe('trialing');
    const trialEnd = trialEndOf(subscriptionId);
    expect(trialEnd).toBe(periodEndOf(subscriptionId));
    expect(await shop.api.deps.subscriptions.findByProcessorId(subscriptionId)).toMatchObject({ status: 'active', trialEnd, currentPeriodEnd: trialEnd });
    expect(await shop.api.deps.licenses.findById(licenseId)).toMatchObject({ trial: true, expiresAt: trialEnd });
    expect(ordersOf(shop, licenseId)).toEqual([]);

    // Stripe's $0 first invoice and the trialing subscription's update change nothing.
    await send(fake.firstInvoicePaidEvent(subscriptionId), fake.subscriptionUpdatedEvent(subscriptionId));
    expect(await shop.api.deps.licenses.findById(licenseId)).toMatchObject({ trial: true, expiresAt: trialEnd });
    expect(ordersOf(shop, licenseId)).toEqual([]);
  });

  test('the first charge at the trial’s end converts the license in place (same id, license.converted once) and records the first order', async () => {
    const { shop, subscriptionId, licenseId, licenseKey, send } = await subscribed({ trialDays: 14 });
    shop.clock.time = trialEndOf(subscriptionId);

    const charge = fake.renew(subscriptionId, 'paid');
    await send(...charge.events);
    await send(...charge.events);

    const converted = (await shop.api.deps.licenses.findById(licenseId))!;
    expect(converted).toMatchObject({ id: licenseId, trial: false, expiresAt: periodEndOf(subscriptionId) + 3 * DAY });
    expect(await shop.api.deps.subscriptions.findByProcessorId(subscriptionId)).toMatchObject({ status: 'active' });
    expect(ordersOf(shop, licenseId)).toEqual([{ source: 'renewal', amount: 900 }]);
    expect(licenseEventsOf(shop, licenseId)).toEqual(['license.created', 'license.converted']);
    const validated = await shop.validate(licenseKey);
    expect(validated.body).toMatchObject({ valid: true, license: { id: licenseId, licenseKey: converted.licenseKey } });
  });

  test('cancelled during the trial: Stripe ends it at the trial’s end, nothing was charged, the license ends with the trial', async () => {
    const { shop, subscriptionId, licenseId, licenseKey, send } = await subscribed({ trialDays: 14 });
    const trialEnd = trialEndOf(subscriptionId);
    const stored = (await shop.api.deps.subscriptions.findByProcessorId(subscriptionId))!;

    const cancel = await shop.api.call('POST', `/developers/subscriptions/${stored.id}/cancel`, { key: shop.dev.apiKey });
    expect(cancel.body).toMatchObject({ cancelAtPeriodEnd: true, trialEnd });
    expect(fake.subscription(subscriptionId).cancel_at_period_end).toBe(true);
    shop.clock.time = trialEnd;
    await send(fake.endSubscription(subscriptionId));

    expect(await stateOf(shop, licenseId)).toMatchObject({ expiresAt: trialEnd, subscription: { status: 'canceled' } });
    expect(ordersOf(shop, licenseId)).toEqual([]);
    expect(fake.intents).toEqual([]);
    expect((await shop.validate(licenseKey)).body).toEqual({ valid: false, reason: 'expired' });
    expect(licenseEventsOf(shop, licenseId)).toEqual(['license.created']);
  });

  test('bought during the buyer’s free trial (e-mail given at checkout): Stripe’s trial is the days left, on the same license', async () => {
    const { shop, product } = await monthlyShop({ trialDays: 14 });
    const started = await shop.api.call('POST', '/trials', { key: shop.dev.apiKey, body: { productId: product.id, email: 'buyer@example.com', machineFingerprint: 'machine-a' } });
    expect(started.status).toBe(201);
    shop.clock.advance(4 * DAY + 3_600_000);

    const { sessionId } = await shop.checkout({ productId: product.id, email: 'buyer@example.com' });
    expect(lastCreate().body.subscription_data).toMatchObject({ trial_period_days: '10' });
    const stripeId = await shop.stripeId(sessionId);
    fake.markPaid(stripeId, aPayment());
    await deliverAll(shop, [fake.completedEvent(stripeId)]);

    const licenseId = (await shop.status(sessionId)).body.license.id;
    expect(licenseId).toBe(started.body.license.id);
    const subscriptionId = fake.subscriptionOf(stripeId);
    const trialEnd = trialEndOf(subscriptionId);
    expect(await shop.api.deps.licenses.findById(licenseId)).toMatchObject({ trial: true, expiresAt: trialEnd });
    expect(await shop.api.deps.subscriptions.findByProcessorId(subscriptionId)).toMatchObject({ trialEnd, licenseId });
    expect(ordersOf(shop, licenseId)).toEqual([]);
  });
});
