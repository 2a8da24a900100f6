import { afterAll, describe, expect, test } from 'bun:test';
import { stripeEvent } from '../support/fake-stripe.ts';
import { DAY, deliverAll, startSubscriptionFake, stateOf } from './stripe-shop.ts';

const { fake, paidAtStripe, subscribed } = await startSubscriptionFake();
afterAll(() => fake.stop());

/** The license of a session, once something completed it. */
async function licenseOf(shop: Awaited<ReturnType<typeof paidAtStripe>>['shop'], sessionId: string) {
  return (await shop.api.deps.checkouts.findById(sessionId))!.licenseId!;
}

describe('subscription events in any order, any number of times', () => {
  test('the first invoice.paid before checkout.session.completed completes the checkout from the subscription’s metadata', async () => {
    const { shop, sessionId, stripeId, subscriptionId, send } = await paidAtStripe();

    await send(fake.firstInvoicePaidEvent(subscriptionId));
    const licenseId = await licenseOf(shop, sessionId);
    const early = await stateOf(shop, licenseId);
    await send(fake.completedEvent(stripeId), fake.firstInvoicePaidEvent(subscriptionId));

    expect(await stateOf(shop, licenseId)).toEqual(early);
    expect(early.subscription).toMatchObject({ status: 'active' });
    expect(shop.store.sqlite.query('SELECT count(*) AS n FROM orders').get()).toEqual({ n: 1 });
  });

  test('customer.subscription.updated before the checkout is known: completed first, then applied', async () => {
    const { shop, sessionId, subscriptionId, send } = await paidAtStripe();
    fake.subscription(subscriptionId).cancel_at_period_end = true;

    await send(fake.subscriptionUpdatedEvent(subscriptionId));

    expect((await stateOf(shop, await licenseOf(shop, sessionId))).subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
  });

  test('a renewal delivered in reverse order, and every event twice, ends as in order', async () => {
    const inOrder = await subscribed();
    const reversed = await subscribed();
    for (const s of [inOrder, reversed]) s.shop.clock.advance(31 * DAY);
    const first = fake.renew(inOrder.subscriptionId).events;
    const second = fake.renew(reversed.subscriptionId).events;

    await inOrder.send(...first);
    await reversed.send(...[...second].reverse(), ...second);

    const a = await stateOf(inOrder.shop, inOrder.licenseId);
    const b = await stateOf(reversed.shop, reversed.licenseId);
    expect({ ...b, subscriptionId: null }).toEqual({ ...a, subscriptionId: null });
    expect(reversed.shop.store.sqlite.query("SELECT count(*) AS n FROM orders WHERE source = 'renewal'").get()).toEqual({ n: 1 });
  });

  test('an old payment_failed delivered after a later renewal paid leaves it active and the license extended', async () => {
    const { shop, subscriptionId, licenseId, send } = await subscribed();
    shop.clock.advance(31 * DAY);
    const failed = fake.renew(subscriptionId, 'failed').events;
    shop.clock.advance(31 * DAY);
    const paid = fake.renew(subscriptionId, 'paid').events;

    await send(...paid, ...failed);

    expect((await stateOf(shop, licenseId)).subscription).toMatchObject({ status: 'active' });
    expect((await stateOf(shop, licenseId)).expiresAt).toBe(fake.subscription(subscriptionId).items.data[0].current_period_end * 1000 + 3 * DAY);
  });

  test('customer.subscription.deleted is final: a late update does not revive it, and the license keeps its end', async () => {
    const { shop, subscriptionId, licenseId, send } = await subscribed();
    const stale = fake.subscriptionUpdatedEvent(subscriptionId);
    shop.clock.advance(DAY);
    await send(fake.endSubscription(subscriptionId), stale);

    expect((await stateOf(shop, licenseId)).subscription).toMatchObject({ status: 'canceled' });
  });

  test('a seller’s own subscription on their account (no checkout of ours) is acknowledged and ignored', async () => {
    const { shop } = await subscribed();
    const theirs = { id: 'sub_theirs', object: 'subscription', status: 'active', metadata: {}, cancel_at_period_end: false };
    const invoice = { id: 'in_theirs', object: 'invoice', billing_reason: 'subscription_cycle', amount_paid: 500, currency: 'usd', parent: { subscription_details: { subscription: 'sub_theirs', metadata: {} } }, lines: { data: [{ period: { start: 1, end: 2 } }] } };

    await deliverAll(shop, [stripeEvent('customer.subscription.updated', theirs, 'acct_1FakeConnected', Math.floor(shop.clock.now() / 1000)), stripeEvent('invoice.paid', invoice, 'acct_1FakeConnected', Math.floor(shop.clock.now() / 1000))]);

    expect(await shop.api.deps.subscriptions.findByProcessorId('sub_theirs')).toBeNull();
  });

  test('a refund of the first invoice’s payment revokes the license and marks its order refunded', async () => {
    const { shop, licenseId, send, sessionId } = await subscribed();
    const paymentId = (await shop.api.deps.checkouts.findById(sessionId))!.paymentId!;

    await send(stripeEvent('charge.refunded', { id: 'ch_1', object: 'charge', payment_intent: paymentId, refunded: true }, 'acct_1FakeConnected'));

    expect((await stateOf(shop, licenseId)).storedStatus).toBe('revoked');
    expect(shop.store.sqlite.query('SELECT status FROM orders WHERE license_id = ?').all(licenseId)).toEqual([{ status: 'refunded' }]);
  });
});
