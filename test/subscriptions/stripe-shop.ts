import type { FixedClock } from '../support/clock.ts';
import { startFakeStripe } from '../support/fake-stripe.ts';
import { aPayment, connectedShop, deliver, type Shop } from '../checkout/shop.ts';

export const DAY = 86_400_000;

/**
 * The fake Stripe on the test's clock (subscription periods and event times follow it), and a
 * connected shop selling a monthly product, through the HTTP app and the official SDK.
 */
export async function startSubscriptionFake() {
  let clock: FixedClock | null = null;
  const fake = await startFakeStripe({ now: () => clock?.now() ?? Date.now() });

  async function monthlyShop(fields: Record<string, unknown> = {}) {
    const shop = await connectedShop({ fake });
    clock = shop.clock;
    const product = await shop.api.call('POST', '/developers/products', {
      key: shop.dev.apiKey,
      body: { name: 'Pro monthly', price: 900, currency: 'usd', features: ['pro'], interval: 'month', ...fields },
    });
    if (product.status !== 201) throw new Error(`product: ${JSON.stringify(product.body)}`);
    return { shop, product: product.body as { id: string; graceDays: number } };
  }

  /** A buyer paid a monthly subscription at Stripe; nothing delivered yet. */
  async function paidAtStripe(fields: Record<string, unknown> = {}) {
    const { shop, product } = await monthlyShop(fields);
    const { sessionId } = await shop.checkout({ productId: product.id, email: 'buyer@example.com' });
    const stripeId = await shop.stripeId(sessionId);
    const payment = aPayment();
    fake.markPaid(stripeId, payment);
    const subscriptionId = fake.subscriptionOf(stripeId);
    const send = (...events: string[]) => deliverAll(shop, events);
    return { shop, product, sessionId, stripeId, subscriptionId, payment, send };
  }

  /** …and its checkout.session.completed delivered: the license exists. */
  async function subscribed(fields: Record<string, unknown> = {}) {
    const s = await paidAtStripe(fields);
    await s.send(fake.completedEvent(s.stripeId));
    const status = (await s.shop.status(s.sessionId)).body;
    return { ...s, licenseKey: status.licenseKey as string, licenseId: status.license.id as string };
  }

  return { fake, monthlyShop, paidAtStripe, subscribed };
}

/** Delivers each signed event in turn; every one must be acknowledged. */
export async function deliverAll(shop: Shop, events: string[]) {
  for (const body of events) {
    const reply = await deliver(shop.api, body);
    if (reply.status !== 200) throw new Error(`event refused ${reply.status}: ${JSON.stringify(reply.body)}`);
  }
}

/** What a test compares: the license and the subscription as stored. */
export async function stateOf(shop: Shop, licenseId: string) {
  const license = await shop.api.deps.licenses.findById(licenseId);
  const subscription = await shop.api.deps.subscriptions.findByLicense(licenseId);
  return {
    expiresAt: license?.expiresAt,
    storedStatus: license?.storedStatus,
    subscriptionId: license?.subscriptionId,
    subscription: subscription && { status: subscription.status, currentPeriodEnd: subscription.currentPeriodEnd, cancelAtPeriodEnd: subscription.cancelAtPeriodEnd },
  };
}
