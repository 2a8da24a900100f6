import { afterAll, describe, expect, test } from 'bun:test';
import { DAY, startSubscriptionFake, stateOf } from './stripe-shop.ts';

const { fake, paidAtStripe, subscribed } = await startSubscriptionFake();
afterAll(() => fake.stop());

const periodEndOf = (subscriptionId: string) => fake.subscription(subscriptionId).items.data[0].current_period_end * 1000;

describe('a recurring product bought through Stripe Checkout', () => {
  test('checkout creates a subscription-mode session on the connected account, its metadata naming our session', async () => {
    const { sessionId } = await paidAtStripe();

    const create = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').at(-1)!;
    expect(create.body).toMatchObject({
      mode: 'subscription',
      line_items: [{ price_data: { currency: 'usd', unit_amount: '900', recurring: { interval: 'month' } } }],
      subscription_data: { metadata: { checkout_session_id: sessionId } },
    });
    expect(create.body.payment_intent_data).toBeUndefined();
    expect(create.headers['stripe-account']).toBe('acct_1FakeConnected');
  });

  test('completion issues a license lasting the first period plus 3 grace days, records the subscription and the order', async () => {
    const { shop, sessionId, subscriptionId, licenseId, payment } = await subscribed();

    const state = await stateOf(shop, licenseId);
    expect(state.expiresAt).toBe(periodEndOf(subscriptionId) + 3 * DAY);
    expect(state.subscription).toEqual({ status: 'active', currentPeriodEnd: periodEndOf(subscriptionId), cancelAtPeriodEnd: false });
    const stored = await shop.api.deps.subscriptions.findByProcessorId(subscriptionId);
    expect(state.subscriptionId).toBe(stored!.id);
    const order = shop.store.sqlite.query('SELECT source, source_id, payment_id, amount FROM orders WHERE license_id = ?').all(licenseId);
    expect(order).toEqual([{ source: 'checkout', source_id: sessionId, payment_id: expect.stringMatching(/^pi_test_/), amount: 900 }]);
    expect(payment.paymentIntentId).toBeString();
  });

  test('a paid renewal extends the license by a period and gives it a fresh key; the old key validates and hands over the new one', async () => {
    const { shop, subscriptionId, licenseId, licenseKey, send } = await subscribed();
    shop.clock.advance(31 * DAY);

    const renewal = fake.renew(subscriptionId, 'paid');
    await send(...renewal.events);

    const state = await stateOf(shop, licenseId);
    expect(state.expiresAt).toBe(periodEndOf(subscriptionId) + 3 * DAY);
    const validation = await shop.validate(licenseKey);
    expect(validation.body).toMatchObject({ valid: true, license: { id: licenseId, expiresAt: state.expiresAt } });
    const freshKey = validation.body.license.licenseKey as string;
    expect(freshKey).not.toBe(licenseKey);
    expect((await shop.validate(freshKey)).body).toMatchObject({ valid: true, license: { expiresAt: state.expiresAt } });
    const orders = shop.store.sqlite.query('SELECT source, source_id FROM orders WHERE license_id = ? ORDER BY source').all(licenseId);
    expect(orders).toEqual([
      { source: 'checkout', source_id: expect.any(String) },
      { source: 'renewal', source_id: renewal.invoiceId },
    ]);
  });

  test('a cancelled subscription runs to the end of its period (plus grace), then the license is expired', async () => {
    const { shop, subscriptionId, licenseId, licenseKey, send } = await subscribed();
    const expiresAt = (await stateOf(shop, licenseId)).expiresAt!;

    fake.subscription(subscriptionId).cancel_at_period_end = true;
    await send(fake.subscriptionUpdatedEvent(subscriptionId));
    expect((await stateOf(shop, licenseId)).subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    shop.clock.advance(31 * DAY);
    await send(fake.endSubscription(subscriptionId));

    expect(await stateOf(shop, licenseId)).toMatchObject({ expiresAt, subscription: { status: 'canceled' } });
    expect((await shop.validate(licenseKey)).body.valid).toBe(true);
    shop.clock.time = expiresAt;
    expect((await shop.validate(licenseKey)).body).toEqual({ valid: false, reason: 'expired' });
  });

  test('a failed renewal makes the subscription past_due; the license lasts through the grace days, then expires', async () => {
    const { shop, subscriptionId, licenseId, licenseKey, send } = await subscribed();
    const expiresAt = (await stateOf(shop, licenseId)).expiresAt!;
    shop.clock.advance(31 * DAY);

    await send(...fake.renew(subscriptionId, 'failed').events);

    expect(await stateOf(shop, licenseId)).toMatchObject({ expiresAt, subscription: { status: 'past_due' } });
    shop.clock.time = expiresAt - 1;
    expect((await shop.validate(licenseKey)).body.valid).toBe(true);
    shop.clock.time = expiresAt;
    expect((await shop.validate(licenseKey)).body).toEqual({ valid: false, reason: 'expired' });
  });

  test('a payment retried after a failure renews again and makes it active', async () => {
    const { shop, subscriptionId, licenseId, send } = await subscribed();
    shop.clock.advance(31 * DAY);
    const failed = fake.renew(subscriptionId, 'failed');
    await send(...failed.events);
    shop.clock.advance(DAY);

    fake.subscription(subscriptionId).status = 'active';
    const retried = JSON.parse(failed.events[1]!);
    retried.data.object.status = 'paid';
    retried.data.object.amount_paid = 900;
    retried.type = 'invoice.paid';
    retried.id = `${retried.id}_retry`;
    retried.created += 86_400;
    await send(JSON.stringify(retried));

    expect(await stateOf(shop, licenseId)).toMatchObject({ expiresAt: periodEndOf(subscriptionId) + 3 * DAY, subscription: { status: 'active' } });
  });
});
