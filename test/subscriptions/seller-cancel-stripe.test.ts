import { afterAll, afterEach, describe, expect, test } from 'bun:test';
import { expectError } from '../http/fixtures.ts';
import { seller } from '../support/http.ts';
import { DAY, deliverAll, startSubscriptionFake, stateOf } from './stripe-shop.ts';

const { fake, subscribed } = await startSubscriptionFake();
afterEach(() => fake.failNext(500, 0));
afterAll(() => fake.stop());

/** A Stripe subscriber, and the seller's cancel route for it (by our id). */
async function stripeSubscriber() {
  const s = await subscribed();
  const ours = (await s.shop.api.deps.subscriptions.findByProcessorId(s.subscriptionId))!;
  const cancel = (key = s.shop.dev.apiKey) => s.shop.api.call('POST', `/developers/subscriptions/${ours.id}/cancel`, { key });
  /** The requests that reached Stripe's subscription update for this subscription. */
  const updates = () => fake.requests.filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${s.subscriptionId}`);
  return { ...s, id: ours.id, cancel, updates };
}

describe('POST /developers/subscriptions/:id/cancel with Stripe', () => {
  test('sets cancel_at_period_end on the seller’s connected account, then records it here', async () => {
    const s = await stripeSubscriber();

    const reply = await s.cancel();

    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: s.id, processor: 'stripe', processorSubscriptionId: s.subscriptionId, status: 'active', cancelAtPeriodEnd: true });
    expect(s.updates()).toHaveLength(1);
    expect(s.updates()[0]!.headers['stripe-account']).toBe('acct_1FakeConnected');
    expect(s.updates()[0]!.body).toMatchObject({ cancel_at_period_end: 'true' });
    expect(fake.subscription(s.subscriptionId).cancel_at_period_end).toBe(true);
  });

  test('Stripe’s customer.subscription.updated then confirms it, and its deletion at period end lets the license run to its end', async () => {
    const s = await stripeSubscriber();
    const { expiresAt } = await stateOf(s.shop, s.licenseId);
    await s.cancel();
    s.shop.clock.advance(1000);

    await deliverAll(s.shop, [fake.subscriptionUpdatedEvent(s.subscriptionId)]);
    expect((await stateOf(s.shop, s.licenseId)).subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });

    s.shop.clock.advance(31 * DAY);
    await deliverAll(s.shop, [fake.endSubscription(s.subscriptionId)]);
    expect(await stateOf(s.shop, s.licenseId)).toMatchObject({ expiresAt, subscription: { status: 'canceled' } });
  });

  test('news Stripe sent before the cancel, delivered after it, does not undo it', async () => {
    const s = await stripeSubscriber();
    const before = fake.subscriptionUpdatedEvent(s.subscriptionId);
    s.shop.clock.advance(1000);

    await s.cancel();
    await deliverAll(s.shop, [before]);

    expect((await stateOf(s.shop, s.licenseId)).subscription).toMatchObject({ cancelAtPeriodEnd: true });
  });

  test('a repeat is answered from here without calling Stripe again', async () => {
    const s = await stripeSubscriber();
    const first = await s.cancel();

    const again = await s.cancel();

    expect(again).toMatchObject({ status: 200, body: first.body });
    expect(s.updates()).toHaveLength(1);
  });

  test('Stripe down: 502 processor_error and nothing recorded; a retry then succeeds', async () => {
    const s = await stripeSubscriber();
    fake.failNext(500, 10);

    expectError(await s.cancel(), 502, 'processor_error');
    expect((await stateOf(s.shop, s.licenseId)).subscription).toMatchObject({ cancelAtPeriodEnd: false });

    fake.failNext(500, 0);
    expect((await s.cancel()).body).toMatchObject({ cancelAtPeriodEnd: true });
  });

  test('another seller’s key: 404 not_found, and Stripe is never asked', async () => {
    const s = await stripeSubscriber();
    const other = await seller(s.shop.api);

    expectError(await s.cancel(other.apiKey), 404, 'not_found');
    expect(s.updates()).toHaveLength(0);
  });

  test('a seller no longer connected to Stripe: 409 not_connected, nothing changed', async () => {
    const s = await stripeSubscriber();
    await s.shop.api.deps.connections.removeAccount('acct_1FakeConnected');

    expectError(await s.cancel(), 409, 'not_connected');
    expect(s.updates()).toHaveLength(0);
    expect((await stateOf(s.shop, s.licenseId)).subscription).toMatchObject({ cancelAtPeriodEnd: false });
  });
});
