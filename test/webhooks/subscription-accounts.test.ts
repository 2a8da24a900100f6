import { afterAll, describe, expect, test } from 'bun:test';
import { deliver, monthlyPaidAtStripe, shopOn } from '../checkout/shop.ts';
import { freshStorePerTest, postgresStores, sqliteMemoryStores } from '../contracts/stores.ts';
import { FixedClock } from '../support/clock.ts';
import { depsFor } from '../support/deps.ts';
import { startFakeStripe } from '../support/fake-stripe.ts';

/**
 * Stripe's events that name a subscription or an invoice act only when they come from the seller's
 * connected account, in every branch; a renewal invoice that is not the subscription's price
 * extends nothing and is shown to the seller (subscription.payment_mismatch). Over the real webhook
 * route with signed events, on SQLite and PostgreSQL.
 */

const DAY = 86_400_000;
const GRACE = 3 * DAY;
let clock = new FixedClock();
const fake = await startFakeStripe({ now: () => clock.now() });
afterAll(() => fake.stop());

/** The event as another account (or, with null, the platform itself) would send it, under a fresh event id. */
function from(account: string | null, body: string, change: (object: any) => void = () => {}): string {
  const event = JSON.parse(body);
  event.id = `evt_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`;
  if (account === null) delete event.account;
  else event.account = account;
  change(event.data.object);
  return JSON.stringify(event);
}

const OTHER = 'acct_1SomeoneElse';

for (const factory of [sqliteMemoryStores, postgresStores]) {
  describe(`${factory.name}: subscription events from the seller's account only`, () => {
    const opened = freshStorePerTest(factory);

    /** A monthly subscriber whose checkout completed; `send` delivers signed events, each must be 200. */
    async function subscriber() {
      const deps = depsFor(opened().store);
      clock = deps.clock;
      const shop = await shopOn(deps, { fake });
      const { sessionId, stripeId, subscriptionId } = await monthlyPaidAtStripe(shop, fake);
      const send = async (...events: string[]) => {
        for (const body of events) expect((await deliver(shop.api, body)).status).toBe(200);
      };
      await send(fake.completedEvent(stripeId));
      const licenseId = (await shop.status(sessionId)).body.license.id as string;
      const periodEnd = () => fake.subscription(subscriptionId).items.data[0].current_period_end * 1000;
      const firstEnd = periodEnd();
      const subscription = async () => (await shop.api.deps.subscriptions.findByProcessorId(subscriptionId))!;
      const expiresAt = async () => (await shop.api.deps.licenses.findById(licenseId))!.expiresAt;
      const events = async () => ((await shop.api.deps.outbox.listEvents(shop.dev.id, { limit: 100 }))?.data ?? []);
      return { shop, subscriptionId, send, firstEnd, periodEnd, subscription, expiresAt, events };
    }

    test('invoice.payment_failed of a known subscription from another account leaves it active', async () => {
      const s = await subscriber();
      clock.advance(31 * DAY);
      const failed = fake.renew(s.subscriptionId, 'failed').events[1]!;
      await s.send(from(OTHER, failed));
      expect((await s.subscription()).status).toBe('active');
      await s.send(failed);
      expect((await s.subscription()).status).toBe('past_due');
    });

    test('customer.subscription.updated of a known subscription from another account changes nothing', async () => {
      const s = await subscriber();
      await s.send(from(OTHER, fake.subscriptionUpdatedEvent(s.subscriptionId), (o) => (o.cancel_at_period_end = true)));
      expect((await s.subscription()).cancelAtPeriodEnd).toBe(false);
    });

    test('a change without a status of ours (incomplete) from another account changes nothing', async () => {
      const s = await subscriber();
      await s.send(from(OTHER, fake.subscriptionUpdatedEvent(s.subscriptionId), (o) => Object.assign(o, { status: 'incomplete', cancel_at_period_end: true })));
      expect((await s.subscription()).cancelAtPeriodEnd).toBe(false);
    });

    test('invoice.paid of a renewal from another account, or from none, extends nothing; from the seller’s it does', async () => {
      const s = await subscriber();
      clock.advance(31 * DAY);
      const paid = fake.renew(s.subscriptionId).events[1]!;
      await s.send(from(OTHER, paid), from(null, paid));
      expect(await s.expiresAt()).toBe(s.firstEnd + GRACE);
      await s.send(paid);
      expect(await s.expiresAt()).toBe(s.periodEnd() + GRACE);
    });
  });

  describe(`${factory.name}: a renewal invoice that is not the subscription's price`, () => {
    const opened = freshStorePerTest(factory);

    async function renewedWith(change: (invoice: any) => void) {
      const deps = depsFor(opened().store);
      clock = deps.clock;
      const shop = await shopOn(deps, { fake });
      const { sessionId, stripeId, subscriptionId } = await monthlyPaidAtStripe(shop, fake);
      expect((await deliver(shop.api, fake.completedEvent(stripeId))).status).toBe(200);
      const licenseId = (await shop.status(sessionId)).body.license.id as string;
      const firstEnd = fake.subscription(subscriptionId).items.data[0].current_period_end * 1000;
      clock.advance(31 * DAY);
      const renewal = fake.renew(subscriptionId);
      const body = from('acct_1FakeConnected', renewal.events[1]!, change);
      // Delivered twice (a Stripe retry): the seller hears of it once.
      for (let i = 0; i < 2; i++) expect((await deliver(shop.api, body)).status).toBe(200);
      const events = ((await shop.api.deps.outbox.listEvents(shop.dev.id, { limit: 100 }))?.data ?? []).filter((e) => e.type === 'subscription.payment_mismatch');
      return { expiresAt: (await shop.api.deps.licenses.findById(licenseId))!.expiresAt, firstEnd, order: await shop.api.deps.orders.findBySource(renewal.invoiceId), events, invoiceId: renewal.invoiceId };
    }

    test('another amount: the license keeps its end, no order, subscription.payment_mismatch once', async () => {
      const r = await renewedWith((invoice) => (invoice.amount_paid = 500));
      expect(r.expiresAt).toBe(r.firstEnd + GRACE);
      expect(r.order).toBeNull();
      expect(r.events.length).toBe(1);
      expect((r.events[0]!.data as any).invoice).toEqual({ invoiceId: r.invoiceId, amount: 500, currency: 'usd', expectedAmount: 900, expectedCurrency: 'usd' });
    });

    test('another currency: the same', async () => {
      const r = await renewedWith((invoice) => (invoice.currency = 'eur'));
      expect(r.expiresAt).toBe(r.firstEnd + GRACE);
      expect(r.events.map((e) => (e.data as any).invoice.currency)).toEqual(['eur']);
    });

    test('the price paid: extended, no mismatch', async () => {
      const r = await renewedWith(() => {});
      expect(r.expiresAt).toBeGreaterThan(r.firstEnd + GRACE);
      expect(r.events).toEqual([]);
    });
  });
}
