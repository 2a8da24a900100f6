import { afterAll, describe, expect, test } from 'bun:test';
import { aPayment, deliver, monthlyPaidAtStripe, shopOn } from '../checkout/shop.ts';
import { freshStorePerTest, postgresStores, sqliteMemoryStores } from '../contracts/stores.ts';
import { depsFor } from '../support/deps.ts';
import { FixedClock } from '../support/clock.ts';
import { startFakeStripe } from '../support/fake-stripe.ts';

/**
 * Refunds and lost disputes are never lost, whatever order Stripe's signed events reach the webhook
 * route in (a failed delivery retried later, a delayed one), and each delivered twice: the order
 * reads refunded with its amount, the license is revoked (a renewal: its expiry never moves for
 * refunded money), and order.refunded and license.revoked go out once. On SQLite and PostgreSQL.
 */

const DAY = 86_400_000;
const GRACE = 3 * DAY;
let clock = new FixedClock();
const fake = await startFakeStripe({ now: () => clock.now() });
afterAll(() => fake.stop());

/** Delivers each signed event twice (a Stripe retry of one that was answered); each must be 200. */
async function deliverTwice(shop: Shop, ...events: string[]) {
  for (const body of events) {
    for (let i = 0; i < 2; i++) {
      const reply = await deliver(shop.api, body);
      if (reply.status !== 200) throw new Error(`event refused ${reply.status}: ${JSON.stringify(reply.body)}`);
    }
  }
}

type Shop = Awaited<ReturnType<typeof shopOn>>;

/** The seller's outgoing event types so far, sorted. */
async function eventTypes(shop: Shop) {
  return (((await shop.api.deps.outbox.listEvents(shop.dev.id, { limit: 100 }))?.data ?? []).map((e) => e.type)).sort();
}

for (const factory of [sqliteMemoryStores, postgresStores]) {
  describe(`${factory.name}: a one-off sale's refund or lost dispute, in any order`, () => {
    const opened = freshStorePerTest(factory);

    /** A sale paid at Stripe (a $19 product), nothing delivered yet. */
    async function paidSale() {
      const deps = depsFor(opened().store);
      clock = deps.clock;
      const shop = await shopOn(deps, { fake });
      expect((await shop.connect()).status).toBe(200);
      const { sessionId } = await shop.checkout({ email: 'buyer@example.com' });
      const stripeId = await shop.stripeId(sessionId);
      const payment = aPayment();
      fake.markPaid(stripeId, payment);
      const completed = fake.completedEvent(stripeId);
      /** The end state every ordering must reach. */
      const expectTakenBack = async () => {
        const order = (await shop.api.deps.orders.findBySource(sessionId))!;
        expect(order).toMatchObject({ status: 'refunded', amountRefunded: order.amount });
        const status = (await shop.status(sessionId)).body;
        expect((await shop.validate(status.licenseKey)).body).toEqual({ valid: false, reason: 'revoked' });
        expect(await eventTypes(shop)).toEqual(['license.created', 'license.revoked', 'order.completed', 'order.refunded']);
      };
      return { shop, payment, completed, expectTakenBack };
    }

    test('completion, then a full refund', async () => {
      const s = await paidSale();
      await deliverTwice(s.shop, s.completed, fake.refundInDashboard(s.payment.paymentIntentId));
      await s.expectTakenBack();
    });

    test('a full refund delivered before checkout.session.completed: the completion records it and revokes the license', async () => {
      const s = await paidSale();
      await deliverTwice(s.shop, fake.refundInDashboard(s.payment.paymentIntentId), s.completed);
      await s.expectTakenBack();
    });

    test('a lost dispute delivered before checkout.session.completed: the same', async () => {
      const s = await paidSale();
      await deliverTwice(s.shop, fake.disputeClosedEvent(s.payment.paymentIntentId, 'lost'), s.completed);
      await s.expectTakenBack();
    });

    test('a full refund and the completion delivered at once (twice each): the same end state', async () => {
      const s = await paidSale();
      const refund = fake.refundInDashboard(s.payment.paymentIntentId);
      const replies = await Promise.all([refund, s.completed, refund, s.completed].map((body) => deliver(s.shop.api, body)));
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      await s.expectTakenBack();
    });

    test('a partial refund delivered first is recorded when the order appears; the license stays', async () => {
      const s = await paidSale();
      await deliverTwice(s.shop, fake.refundInDashboard(s.payment.paymentIntentId, 500), s.completed);
      const order = (await s.shop.api.deps.orders.findByPayment(s.payment.paymentIntentId))[0]!;
      expect(order).toMatchObject({ status: 'paid', amountRefunded: 500 });
    });

    test('a refund reported first from another account is not applied when the order appears', async () => {
      const s = await paidSale();
      const forged = JSON.parse(fake.refundInDashboard(s.payment.paymentIntentId));
      forged.account = 'acct_1SomeoneElse';
      await deliverTwice(s.shop, JSON.stringify(forged), s.completed);
      expect((await s.shop.api.deps.orders.findByPayment(s.payment.paymentIntentId))[0]).toMatchObject({ status: 'paid', amountRefunded: 0 });
    });
  });

  describe(`${factory.name}: a renewal's refund, before or after its invoice.paid`, () => {
    const opened = freshStorePerTest(factory);

    /** A monthly subscriber, completed; a month later the renewal is paid at Stripe, its events not yet delivered. */
    async function renewalPaid(shape: 'current' | 'current-unlisted' | 'legacy' = 'current') {
      const deps = depsFor(opened().store);
      clock = deps.clock;
      const shop = await shopOn(deps, { fake });
      const { sessionId, stripeId, subscriptionId } = await monthlyPaidAtStripe(shop, fake);
      await deliverTwice(shop, fake.completedEvent(stripeId));
      const licenseId = (await shop.status(sessionId)).body.license.id as string;
      const firstEnd = fake.subscription(subscriptionId).items.data[0].current_period_end * 1000;
      clock.advance(31 * DAY);
      const renewal = fake.renew(subscriptionId, 'paid', shape);
      const before = await eventTypes(shop);
      const license = () => shop.api.deps.licenses.findById(licenseId);
      const order = () => shop.api.deps.orders.findBySource(renewal.invoiceId);
      const newEvents = async () => {
        const all = await eventTypes(shop);
        for (const type of before) all.splice(all.indexOf(type), 1);
        return all;
      };
      return { shop, renewal, firstEnd, license, order, newEvents, subscriptionId };
    }

    for (const shape of ['current', 'current-unlisted', 'legacy'] as const) {
      test(`a full refund delivered before its invoice.paid extends nothing; the order reads refunded (invoice shape: ${shape})`, async () => {
        const r = await renewalPaid(shape);
        const refund = fake.refundInDashboard(r.renewal.paymentIntentId!, undefined, shape === 'legacy' ? 'legacy' : 'current');
        await deliverTwice(r.shop, refund, ...r.renewal.events);
        expect((await r.license())!.expiresAt).toBe(r.firstEnd + GRACE);
        expect(await r.order()).toMatchObject({ status: 'refunded', amountRefunded: 900 });
        const events = await r.newEvents();
        expect(events.filter((t) => t.startsWith('order.') || t.startsWith('license.'))).toEqual(['order.completed', 'order.refunded']);
      });
    }

    test('invoice.paid, then the refund: the period is taken back, once', async () => {
      const r = await renewalPaid();
      await deliverTwice(r.shop, ...r.renewal.events, fake.refundInDashboard(r.renewal.paymentIntentId!));
      expect((await r.license())!.expiresAt).toBe(r.firstEnd + GRACE);
      expect(await r.order()).toMatchObject({ status: 'refunded', amountRefunded: 900 });
      const events = await r.newEvents();
      expect(events.filter((t) => t.startsWith('order.') || t.startsWith('license.'))).toEqual(['license.renewed', 'license.updated', 'order.completed', 'order.refunded']);
    });

    test('the refund and the renewal’s events delivered at once: the expiry ends where it was, the order refunded', async () => {
      const r = await renewalPaid();
      const refund = fake.refundInDashboard(r.renewal.paymentIntentId!);
      const replies = await Promise.all([refund, ...r.renewal.events, refund].map((body) => deliver(r.shop.api, body)));
      expect(replies.every((reply) => reply.status === 200)).toBe(true);
      expect((await r.license())!.expiresAt).toBe(r.firstEnd + GRACE);
      expect(await r.order()).toMatchObject({ status: 'refunded', amountRefunded: 900 });
    });

    test('a lost dispute of the renewal delivered before its invoice.paid extends nothing', async () => {
      const r = await renewalPaid();
      await deliverTwice(r.shop, fake.disputeClosedEvent(r.renewal.paymentIntentId!, 'lost'), ...r.renewal.events);
      expect((await r.license())!.expiresAt).toBe(r.firstEnd + GRACE);
      expect(await r.order()).toMatchObject({ status: 'refunded', amountRefunded: 900 });
    });
  });
}
