import { afterAll, afterEach, describe, expect, test } from 'bun:test';
import { HttpWebhookSender } from '../../src/adapters/webhooks/http-webhook-sender.ts';
import { deliverDue, type DeliverDeps } from '../../src/app/outgoing-webhooks/deliver.ts';
import { sweepOutbox } from '../../src/app/outgoing-webhooks/sweep-outbox.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { aPayment, deliver, shopOn } from '../checkout/shop.ts';
import { expectError } from '../http/fixtures.ts';
import { seller } from '../support/http.ts';
import { freshStorePerTest, postgresStores, sqliteMemoryStores } from '../contracts/stores.ts';
import { FixedClock } from '../support/clock.ts';
import { depsFor } from '../support/deps.ts';
import { startFakeStripe } from '../support/fake-stripe.ts';
import { receiver, signedBy, webhookWorld } from './support.ts';

const DAY = 86_400_000;
const TYPES = ['subscription.created', 'subscription.renewed', 'subscription.past_due', 'subscription.canceled', 'subscription.resumed', 'trial.ending'];
const GOOD_CARD = '4242 4242 4242 4242';
/** The sandbox's card whose renewals fail. */
const FAILING_CARD = '4000 0000 0000 0341';

let clock: FixedClock | null = null;
const fake = await startFakeStripe({ now: () => clock?.now() ?? Date.now() });
afterAll(() => fake.stop());
const stops: (() => unknown)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

describe.each([sqliteMemoryStores, postgresStores].map((f) => [f.name, f] as const))('subscription and trial events delivered on %s', (_, factory) => {
  const opened = freshStorePerTest(factory);

  /**
   * A connected shop (sandbox, or Stripe through the fake) whose seller registered a local receiver
   * for the subscription and trial events only, and the real sender over the same store.
   */
  async function eventShop(stripe: boolean) {
    const { store } = opened();
    clock = new FixedClock(Date.now());
    const deps = depsFor(store, clock, { webhooks: { allowPrivateAddresses: true } });
    const shop = await shopOn(deps, stripe ? { fake } : {});
    expect((await shop.connect()).status).toBe(200);
    const hook = receiver();
    stops.push(hook.stop);
    const endpoint = await shop.api.call('POST', '/developers/webhook-endpoints', { key: shop.dev.apiKey, body: { url: hook.url, events: TYPES } });
    expect(endpoint.status).toBe(201);
    const sender: DeliverDeps = {
      clock,
      outbox: store.outbox,
      secrets: deps.webhookSecrets,
      sender: new HttpWebhookSender({ timeoutMs: 5_000, allowPrivateAddresses: true, resolver: deps.hostResolver }),
      random: () => 0.5,
    };
    const product = await shop.api.call('POST', '/developers/products', { key: shop.dev.apiKey, body: { name: 'Pro monthly', price: 900, currency: 'usd', features: ['pro'], interval: 'month' } });
    expect(product.status).toBe(201);

    /** Sends every due delivery until none is left; what the receiver got, each checked against the secret, as type and subject. */
    const received = async () => {
      while ((await deliverDue(sender, { leaseMs: 60_000, limit: 50 })).length > 0);
      return hook.received.map((message) => {
        expect(signedBy(endpoint.body.secret, message)).toBe(true);
        const { type, data } = JSON.parse(message.body);
        return { id: message.headers['webhook-id'], type, subject: (data.subscription ?? data.license).id as string, data };
      });
    };
    return { store, clock, shop, product: product.body as { id: string }, received };
  }

  test('sandbox: created, renewed, past_due, resumed, canceled and trial.ending reach the endpoint once each, driven by the sandbox clock', async () => {
    const { clock, shop, product, received } = await eventShop(false);
    const { api, dev } = shop;
    const buy = async (email: string, cardNumber: string) => {
      const { sessionId } = await shop.checkout({ productId: product.id });
      const form = new URLSearchParams({ email, phone: '+15550100000', cardNumber });
      const pay = await api.call('POST', `/sandbox/checkout/${sessionId}/pay`, { rawBody: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(pay.status).toBe(303);
      return (await api.deps.subscriptions.findByLicense((await shop.status(sessionId)).body.license.id))!;
    };
    const advance = async (advanceDays: number) => (await api.call('POST', '/sandbox/clock', { key: dev.apiKey, body: { advanceDays } })).body.billed;
    const paying = await buy('paying@example.com', GOOD_CARD);
    const failing = await buy('failing@example.com', FAILING_CARD);
    await api.call('PATCH', `/developers/products/${dev.product.id}`, { key: dev.apiKey, body: { trialDays: 14 } });
    const trial = await api.call('POST', '/trials', { key: dev.apiKey, body: { productId: dev.product.id, email: 'trial@example.com', machineFingerprint: 'machine-t' } });
    expect(trial.status).toBe(201);

    expect(await advance(32)).toHaveLength(2);
    // The clock's next run tries the failing card again: still past_due, nothing new to announce.
    expect((await advance(0)).map((b: { outcome: string }) => b.outcome)).toEqual(['payment_failed']);
    // The seller cancels at period end (no event), and it is taken back before the end.
    expect((await api.call('POST', `/developers/subscriptions/${paying.id}/cancel`, { key: dev.apiKey })).status).toBe(200);
    const marked = (await api.deps.subscriptions.findById(dev.id, paying.id))!;
    await api.deps.subscriptions.update(marked.processorSubscriptionId, { cancelAtPeriodEnd: false, asOf: marked.updatedAt + 1 });
    await api.deps.subscriptions.update(marked.processorSubscriptionId, { cancelAtPeriodEnd: false, asOf: marked.updatedAt + 2 });
    // Cancelled again, it ends at its period end; the failing card fails again (still past_due).
    await api.call('POST', `/developers/subscriptions/${paying.id}/cancel`, { key: dev.apiKey });
    expect((await advance(40)).map((b: { outcome: string }) => b.outcome).sort()).toEqual(['canceled', 'payment_failed']);
    // Eleven days into the 14-day trial, two sweeps (as two instances would) announce its end once.
    clock.advance(11 * DAY + 1);
    await sweepOutbox({ clock, outbox: shop.api.deps.outbox });
    await sweepOutbox({ clock, outbox: shop.api.deps.outbox });

    const got = await received();
    expect(got.map((m) => `${m.type} ${m.subject}`).sort()).toEqual([
      `subscription.canceled ${paying.id}`,
      `subscription.created ${failing.id}`,
      `subscription.created ${paying.id}`,
      `subscription.past_due ${failing.id}`,
      `subscription.renewed ${paying.id}`,
      `subscription.resumed ${paying.id}`,
      `trial.ending ${trial.body.license.id}`,
    ].sort());
    expect(new Set(got.map((m) => m.id)).size).toBe(got.length);
    const canceled = got.find((m) => m.type === 'subscription.canceled')!.data.subscription;
    expect(canceled).toMatchObject({ id: paying.id, licenseId: paying.licenseId, customerEmail: 'paying@example.com', status: 'canceled', canceledAt: expect.any(Number) });
    expect(got.find((m) => m.type === 'trial.ending')!.data.license).toMatchObject({ trial: true, status: 'active', customerEmail: 'trial@example.com' });
    expect(await received()).toHaveLength(got.length);
  });

  test('Stripe: each subscription event reaches the endpoint once, however often Stripe reports the same state', async () => {
    const { clock, shop, product, received } = await eventShop(true);
    const { sessionId } = await shop.checkout({ productId: product.id, email: 'buyer@example.com' });
    const stripeSessionId = await shop.stripeId(sessionId);
    fake.markPaid(stripeSessionId, aPayment());
    const id = fake.subscriptionOf(stripeSessionId);
    const send = async (...events: string[]) => {
      for (const body of events) expect((await deliver(shop.api, body)).status).toBe(200);
    };
    const completed = fake.completedEvent(stripeSessionId);
    await send(completed, completed, fake.firstInvoicePaidEvent(id), fake.subscriptionUpdatedEvent(id));

    clock.advance(31 * DAY);
    await send(...fake.renew(id, 'paid').events, fake.subscriptionUpdatedEvent(id));
    clock.advance(31 * DAY);
    await send(...fake.renew(id, 'failed').events, fake.subscriptionUpdatedEvent(id));
    // The seller cancels at period end (Stripe is told), then it is resumed at Stripe.
    const ours = (await shop.api.deps.subscriptions.findByProcessorId(id))!;
    expect((await shop.api.call('POST', `/developers/subscriptions/${ours.id}/cancel`, { key: shop.dev.apiKey })).status).toBe(200);
    expect(fake.subscription(id).cancel_at_period_end).toBe(true);
    clock.advance(60_000);
    await send(fake.subscriptionUpdatedEvent(id));
    fake.subscription(id).cancel_at_period_end = false;
    clock.advance(60_000);
    await send(fake.subscriptionUpdatedEvent(id), fake.subscriptionUpdatedEvent(id));
    clock.advance(60_000);
    const ended = fake.endSubscription(id);
    await send(ended, ended, fake.subscriptionUpdatedEvent(id));

    const got = await received();
    expect(got.map((m) => `${m.type} ${m.subject}`).sort()).toEqual(
      ['subscription.canceled', 'subscription.created', 'subscription.past_due', 'subscription.renewed', 'subscription.resumed'].map((type) => `${type} ${ours.id}`),
    );
    expect(got.find((m) => m.type === 'subscription.resumed')!.data.subscription).toMatchObject({ cancelAtPeriodEnd: false, status: 'past_due', processor: 'stripe' });
  });
});

describe('registering for subscription and trial events', () => {
  test('an endpoint takes the new types, on creation and on change; a misspelt one, or one with a NUL byte, is 400 naming it', async () => {
    const store = openSqliteStore(':memory:');
    stops.push(() => store.close());
    const { api } = webhookWorld(store, { allowPrivate: false });
    const me = await seller(api);
    const url = 'https://hooks.example.com/licensing';

    const created = await api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url, events: TYPES } });
    expect(created.status).toBe(201);
    expect(created.body.events).toEqual(TYPES);
    const changed = await api.call('PATCH', `/developers/webhook-endpoints/${created.body.id}`, { key: me.apiKey, body: { events: ['trial.ending'] } });
    expect(changed.body.events).toEqual(['trial.ending']);

    for (const events of [['subscription.paused'], ['subscription.renewed\u0000'], ['trial.ended']]) {
      const reply = await api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url, events } });
      expectError(reply, 400, 'invalid_request');
    }
    const misspelt = await api.call('PATCH', `/developers/webhook-endpoints/${created.body.id}`, { key: me.apiKey, body: { events: ['subscription.cancelled'] } });
    expectError(misspelt, 400, 'invalid_request');
    expect(misspelt.body.error.message).toContain('subscription.cancelled');
    const doc = await api.call('GET', '/openapi.json');
    for (const type of TYPES) expect(JSON.stringify(doc.body)).toContain(type);
  });
});
