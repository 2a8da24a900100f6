import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { completeCheckout } from '../../src/app/checkout/complete-checkout.ts';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.ts';
import { aCompletion, aPayment, completedEvent, connectedShop, deliver, type Shop } from './shop.ts';

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(() => fake.stop());

const times = <T>(n: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));

/** The one license the store holds for the session, checked from both sides: by session and by buyer. */
async function theOnlyLicense(shop: Shop, sessionId: string): Promise<string> {
  const bySession = await shop.api.deps.licenses.findByCheckoutSession(sessionId);
  expect(bySession).not.toBeNull();
  expect(await shop.licensesOfBuyer(sessionId)).toEqual([bySession!.id]);
  return bySession!.id;
}

/** Counts attempts to store a license (the real repository still does the work): proof the race was contended. */
function countIssuances(shop: Shop): () => number {
  const licenses = shop.api.deps.licenses;
  const create = licenses.create.bind(licenses);
  let attempts = 0;
  licenses.create = (...args) => {
    attempts++;
    return create(...args);
  };
  return () => attempts;
}

describe('exactly one license per checkout session, however many deliveries race', () => {
  test('the same signed event delivered 10 times at once: one acts, nine are duplicates, one license', async () => {
    const shop = await connectedShop({ fake });
    const { sessionId } = await shop.checkout();
    const stripeId = await shop.stripeId(sessionId);
    fake.markPaid(stripeId, aPayment());
    const event = completedEvent(stripeId, sessionId);

    const replies = await times(10, () => deliver(shop.api, event));

    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(replies.filter((r) => r.body.duplicate !== true)).toHaveLength(1);
    await theOnlyLicense(shop, sessionId);
  });

  test('10 different events completing one session at once: one license', async () => {
    const shop = await connectedShop({ fake });
    const { sessionId } = await shop.checkout();
    const stripeId = await shop.stripeId(sessionId);
    fake.markPaid(stripeId, aPayment());

    const replies = await times(10, () => deliver(shop.api, completedEvent(stripeId, sessionId)));

    expect(replies.map((r) => r.body)).toEqual(Array(10).fill({ received: true }));
    await theOnlyLicense(shop, sessionId);
  });

  test('webhooks (same and different ids), reconciling polls and direct completions all at once: one license, one answer', async () => {
    const shop = await connectedShop({ fake });
    const { sessionId } = await shop.checkout();
    const stripeId = await shop.stripeId(sessionId);
    const payment = aPayment();
    fake.markPaid(stripeId, payment);
    const sameEvent = completedEvent(stripeId, sessionId);
    const completion = aCompletion({ email: payment.email, processorCustomerId: payment.customerId, paymentId: payment.paymentIntentId });
    const issuances = countIssuances(shop);

    const [same, different, polls, direct] = await Promise.all([
      times(10, () => deliver(shop.api, sameEvent)),
      times(10, () => deliver(shop.api, completedEvent(stripeId, sessionId))),
      times(10, () => shop.status(sessionId)),
      times(10, () => completeCheckout(shop.api.deps, sessionId, completion)),
    ]);

    const licenseId = await theOnlyLicense(shop, sessionId);
    expect(issuances()).toBeGreaterThan(1);
    expect([...same, ...different, ...polls].map((r) => r.status)).toEqual(Array(30).fill(200));
    expect(direct.map((l) => l.id)).toEqual(Array(10).fill(licenseId));
    const completePolls = polls.filter((r) => r.body.status === 'complete');
    expect(completePolls.map((r) => r.body.license.id)).toEqual(Array(completePolls.length).fill(licenseId));
    expect(new Set(completePolls.map((r) => r.body.licenseKey)).size).toBeLessThanOrEqual(1);
    expect((await shop.status(sessionId)).body.license.id).toBe(licenseId);
  });

  test('after the race, later polls keep answering the same license', async () => {
    const shop = await connectedShop({ fake });
    const { sessionId } = await shop.checkout();
    const stripeId = await shop.stripeId(sessionId);
    fake.markPaid(stripeId, aPayment());
    await times(5, () => deliver(shop.api, completedEvent(stripeId, sessionId)));
    const licenseId = await theOnlyLicense(shop, sessionId);

    const polls = await times(5, () => shop.status(sessionId));

    expect(polls.map((r) => r.body.license.id)).toEqual(Array(5).fill(licenseId));
  });

  test('sandbox: 10 completions (what Pay calls) racing 10 polls yield one license', async () => {
    const shop = await connectedShop();
    const { sessionId } = await shop.checkout();

    const [completed, polls] = await Promise.all([
      times(10, () => completeCheckout(shop.api.deps, sessionId, aCompletion())),
      times(10, () => shop.status(sessionId)),
    ]);

    const licenseId = await theOnlyLicense(shop, sessionId);
    expect(completed.map((l) => l.id)).toEqual(Array(10).fill(licenseId));
    for (const poll of polls) {
      expect(poll.status).toBe(200);
      if (poll.body.status === 'complete') expect(poll.body.license.id).toBe(licenseId);
      else expect(poll.body).toEqual({ status: 'pending' });
    }
  });
});
