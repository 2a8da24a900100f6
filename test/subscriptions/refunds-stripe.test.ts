import { afterAll, describe, expect, test } from 'bun:test';
import { stripeEvent } from '../support/fake-stripe.ts';
import type { InvoiceShape } from '../support/fake-stripe-subscriptions.ts';
import { aPayment, deliver } from '../checkout/shop.ts';
import { DAY, startSubscriptionFake, stateOf } from './stripe-shop.ts';

const { fake, subscribed, monthlyShop } = await startSubscriptionFake();
afterAll(() => fake.stop());

const GRACE = 3 * DAY;
const periodEndOf = (subscriptionId: string) => fake.subscription(subscriptionId).items.data[0].current_period_end * 1000;

/** A subscriber a month later: the renewal paid at Stripe, its events (invoice in `shape`) delivered. */
async function renewed(shape: InvoiceShape = 'current') {
  const s = await subscribed();
  const firstEnd = periodEndOf(s.subscriptionId);
  s.shop.clock.advance(31 * DAY);
  const renewal = fake.renew(s.subscriptionId, 'paid', shape);
  await s.send(...renewal.events);
  const order = async () => (await s.shop.api.deps.orders.findBySource(renewal.invoiceId))!;
  const eventsSince = eventLog(s.shop.api.deps, s.shop.dev.id);
  return { ...s, firstEnd, secondEnd: periodEndOf(s.subscriptionId), renewal: { ...renewal, paymentIntentId: renewal.paymentIntentId! }, order, eventsSince: await eventsSince() };
}

/** The seller's outgoing events written since this call: type and subject. */
function eventLog(deps: { outbox: { listEvents: (id: string, q: { limit: number }) => Promise<{ data: { id: string; type: string }[] } | null> } }, developerId: string) {
  return async () => {
    const seen = new Set(((await deps.outbox.listEvents(developerId, { limit: 100 }))?.data ?? []).map((e) => e.id));
    return async () => ((await deps.outbox.listEvents(developerId, { limit: 100 }))?.data ?? []).filter((e) => !seen.has(e.id)).map((e) => e.type).sort();
  };
}

describe('a renewal refunded or lost in a dispute takes back its period', () => {
  for (const shape of ['current', 'current-unlisted', 'legacy'] as const) {
    test(`a full refund at Stripe rolls expiresAt back to what was paid before the invoice, with a fresh key (invoice shape: ${shape})`, async () => {
      const r = await renewed(shape);
      expect((await stateOf(r.shop, r.licenseId)).expiresAt).toBe(r.secondEnd + GRACE);
      const before = await r.shop.api.deps.licenses.findById(r.licenseId);

      await r.send(fake.refundInDashboard(r.renewal.paymentIntentId, undefined, shape === 'legacy' ? 'legacy' : 'current'));

      const after = (await r.shop.api.deps.licenses.findById(r.licenseId))!;
      expect({ expiresAt: after.expiresAt, status: after.storedStatus }).toEqual({ expiresAt: r.firstEnd + GRACE, status: 'active' });
      expect(after.licenseKey).not.toBe(before!.licenseKey);
      expect(await r.order()).toMatchObject({ status: 'refunded', amountRefunded: 900, periodStart: r.firstEnd, periodEnd: r.secondEnd });
      expect(await r.eventsSince()).toEqual(['license.updated', 'order.refunded']);
      // The current API's invoice events leave its payments out: the service asked Stripe which payment paid it.
      const asked = fake.requests.filter((q) => q.path === '/v1/invoice_payments' && q.query.invoice === r.renewal.invoiceId);
      expect(asked.length).toBe(shape === 'current-unlisted' ? 1 : 0);
    });
  }

  test('a renewal recorded without its payment (before payments were looked up) is found through Stripe by the refunded payment', async () => {
    const r = await renewed('current-unlisted');
    r.shop.store.sqlite.query('UPDATE orders SET payment_id = NULL WHERE source_id = ?').run(r.renewal.invoiceId);

    await r.send(fake.refundInDashboard(r.renewal.paymentIntentId));

    expect(await r.order()).toMatchObject({ status: 'refunded', paymentId: null });
    expect((await stateOf(r.shop, r.licenseId)).expiresAt).toBe(r.firstEnd + GRACE);
    expect(fake.requests.some((q) => q.path === '/v1/invoice_payments' && (q.query.payment as any)?.payment_intent === r.renewal.paymentIntentId)).toBe(true);
  });

  test('a lost dispute of the renewal rolls it back as a refund does; a won one changes nothing', async () => {
    const r = await renewed();

    await r.send(fake.disputeClosedEvent(r.renewal.paymentIntentId, 'won'));
    expect((await stateOf(r.shop, r.licenseId)).expiresAt).toBe(r.secondEnd + GRACE);
    await r.send(fake.disputeClosedEvent(r.renewal.paymentIntentId, 'lost'));

    expect((await stateOf(r.shop, r.licenseId)).expiresAt).toBe(r.firstEnd + GRACE);
    expect(await r.order()).toMatchObject({ status: 'refunded', amountRefunded: 900 });
    expect(await r.eventsSince()).toEqual(['license.updated', 'order.refunded']);
  });

  test('a partial refund records its amount and takes nothing back; the rest, later, does', async () => {
    const r = await renewed();

    await r.send(fake.refundInDashboard(r.renewal.paymentIntentId, 300));
    expect(await r.order()).toMatchObject({ status: 'paid', amountRefunded: 300 });
    expect((await stateOf(r.shop, r.licenseId)).expiresAt).toBe(r.secondEnd + GRACE);
    // Stripe's figures are cumulative: the same event again, or a late one, changes nothing.
    await r.send(fake.chargeRefundedEvent(r.renewal.paymentIntentId));
    await r.send(fake.refundInDashboard(r.renewal.paymentIntentId));

    expect(await r.order()).toMatchObject({ status: 'refunded', amountRefunded: 900 });
    expect((await stateOf(r.shop, r.licenseId)).expiresAt).toBe(r.firstEnd + GRACE);
    expect(await r.eventsSince()).toEqual(['license.updated', 'order.refunded', 'order.refunded']);
  });

  test('a late report of the refunded invoice’s payment (invoice.payment_succeeded) does not extend the license again', async () => {
    const r = await renewed();
    await r.send(fake.refundInDashboard(r.renewal.paymentIntentId));
    const invoice = JSON.parse(r.renewal.events[1]!).data.object;

    await r.send(stripeEvent('invoice.payment_succeeded', invoice, 'acct_1FakeConnected', Math.floor(r.shop.clock.now() / 1000)));

    expect((await stateOf(r.shop, r.licenseId)).expiresAt).toBe(r.firstEnd + GRACE);
  });

  test('an older renewal refunded while a later one is paid: the license keeps the later period', async () => {
    const r = await renewed();
    r.shop.clock.advance(31 * DAY);
    const third = fake.renew(r.subscriptionId);
    await r.send(...third.events);
    const thirdEnd = periodEndOf(r.subscriptionId);

    await r.send(fake.refundInDashboard(r.renewal.paymentIntentId));
    expect((await stateOf(r.shop, r.licenseId)).expiresAt).toBe(thirdEnd + GRACE);
    // …and once the later one goes too, back to before both.
    await r.send(fake.refundInDashboard(third.paymentIntentId!));
    expect((await stateOf(r.shop, r.licenseId)).expiresAt).toBe(r.firstEnd + GRACE);
  });

  test('the first payment refunded revokes the subscription’s license, renewals or not', async () => {
    const r = await renewed();
    const first = (await r.shop.api.deps.orders.findBySource(r.sessionId))!;

    await r.send(fake.refundInDashboard(first.paymentId!));

    expect((await stateOf(r.shop, r.licenseId)).storedStatus).toBe('revoked');
    expect(await r.eventsSince()).toEqual(['license.revoked', 'order.refunded']);
  });
});

describe('events of another account', () => {
  test('checkout.session.completed from an account that is not the seller’s connected one completes nothing', async () => {
    const { shop, product } = await monthlyShop();
    const { sessionId } = await shop.checkout({ productId: product.id, email: 'buyer@example.com' });
    const stripeId = await shop.stripeId(sessionId);
    fake.markPaid(stripeId, aPayment());
    const forged = JSON.parse(fake.completedEvent(stripeId));
    forged.account = 'acct_1SomeoneElse';

    await deliver(shop.api, JSON.stringify(forged));

    expect((await shop.api.deps.checkouts.findById(sessionId))!.licenseId).toBeNull();
    await deliver(shop.api, fake.completedEvent(stripeId));
    expect((await shop.api.deps.checkouts.findById(sessionId))!.licenseId).not.toBeNull();
  });

  test('a refund reported from another account leaves the seller’s order and license alone', async () => {
    const r = await renewed();
    const forged = JSON.parse(fake.refundInDashboard(r.renewal.paymentIntentId));
    forged.account = 'acct_1SomeoneElse';

    await r.send(JSON.stringify(forged));

    expect(await r.order()).toMatchObject({ status: 'paid', amountRefunded: 0 });
    expect((await stateOf(r.shop, r.licenseId)).expiresAt).toBe(r.secondEnd + GRACE);
  });
});
