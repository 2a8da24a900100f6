import { describe, expect, test } from 'bun:test';
import { withSandboxSubscription } from '../../src/adapters/sandbox/sandbox-subscriptions.ts';
import { completeCheckout } from '../../src/app/checkout/complete-checkout.ts';
import { offeredTrial } from '../../src/app/checkout/offered-trial.ts';
import { aCompletion, shopOn } from '../checkout/shop.ts';
import { postgresStores, sqliteStores, type TestStore } from '../contracts/stores.ts';
import { depsFor } from '../support/deps.ts';

const BUYER = 'racer@example.com';

/**
 * 10 deliveries at once of one checkout that buys a subscription during the buyer's free trial: the
 * trial is taken over once, by the subscription the store records, and every delivery answers it.
 */
async function raceAdoptions(opened: TestStore) {
  const shop = await shopOn(depsFor(opened.store));
  const deps = shop.api.deps;
  if ((await shop.connect()).status !== 200) throw new Error('connect');
  const created = await shop.api.call('POST', '/developers/products', {
    key: shop.dev.apiKey,
    body: { name: 'Pro monthly', price: 900, currency: 'usd', interval: 'month', trialDays: 14 },
  });
  const product = created.body;
  const trial = (await shop.api.call('POST', '/trials', { key: shop.dev.apiKey, body: { productId: product.id, email: BUYER, machineFingerprint: 'machine-a' } })).body;
  const { sessionId } = await shop.checkout({ productId: product.id, email: BUYER });
  const now = deps.clock.now();
  const owed = await offeredTrial(deps, (await deps.products.get(shop.dev.id, product.id))!, BUYER, now);
  const completion = withSandboxSubscription(aCompletion({ email: BUYER }), sessionId, 'month', now, owed);

  const licenses = await Promise.all(Array.from({ length: 10 }, () => completeCheckout(deps, sessionId, completion)));

  expect(new Set(licenses.map((l) => l.id))).toEqual(new Set([trial.license.id]));
  const stored = (await deps.licenses.findById(trial.license.id))!;
  const subscription = (await deps.subscriptions.findByLicense(stored.id))!;
  expect(stored).toMatchObject({ trial: true, subscriptionId: subscription.id, expiresAt: trial.license.expiresAt });
  expect(subscription.trialEnd).toBe(trial.license.expiresAt);
  expect((await deps.licenses.listByCustomer(stored.customerId)).map((l) => l.id)).toEqual([stored.id]);
}

describe('a subscription bought during a free trial, completed by 10 deliveries at once', () => {
  for (const factory of [sqliteStores, postgresStores]) {
    test(`on ${factory.name}: one license (the trial), one subscription, and the license names that subscription`, async () => {
      const opened = await factory.open();
      try {
        await raceAdoptions(opened);
      } finally {
        await opened.dispose();
      }
    });
  }
});
