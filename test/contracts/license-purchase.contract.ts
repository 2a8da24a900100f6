import { describe, expect, test } from 'bun:test';
import type { DomainError } from '../../src/domain/errors.ts';
import type { License } from '../../src/domain/license.ts';
import type { Store } from '../../src/ports/deps.ts';
import { aLicense, unique } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';
import { givenPurchase } from './terminal-builders.ts';

const newKeyHash = () => `hash_${unique()}`;
const codeOf = (outcome: PromiseSettledResult<void>) =>
  outcome.status === 'rejected' ? (outcome.reason as DomainError).code : 'created';

/** A stored purchase and licenses for its buyer, ready to be created. */
async function candidates(store: Store, count: number): Promise<{ purchaseId: string; licenses: License[] }> {
  const { purchase, parties } = await givenPurchase(store);
  return { purchaseId: purchase.id, licenses: Array.from({ length: count }, () => aLicense(parties)) };
}

export function licensePurchaseContract(factory: StoreFactory): void {
  describe(`LicenseRepository purchase origin on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a license created for a purchase is found by it, field for field', async () => {
      const { store } = opened();
      const { purchaseId, licenses: [license] } = await candidates(store, 1);

      await store.licenses.create(license!, newKeyHash(), { purchaseId });

      expect(await store.licenses.findByPurchase(purchaseId)).toEqual(license!);
      expect(await store.licenses.findById(license!.id)).toEqual(license!);
    });

    test('a purchase without a license finds nothing, nor does a license made for a checkout session', async () => {
      const { store } = opened();
      const { purchaseId, licenses: [viaCheckout] } = await candidates(store, 1);

      await store.licenses.create(viaCheckout!, newKeyHash(), { checkoutSessionId: 'cs_paid' });

      expect(await store.licenses.findByPurchase(purchaseId)).toBeNull();
      expect(await store.licenses.findByPurchase('pur_unknown')).toBeNull();
    });

    test('a second license for one purchase throws conflict and is not stored', async () => {
      const { store } = opened();
      const { purchaseId, licenses: [first, second] } = await candidates(store, 2);
      await store.licenses.create(first!, newKeyHash(), { purchaseId });

      const error = await store.licenses.create(second!, newKeyHash(), { purchaseId }).catch((e: DomainError) => e);

      expect((error as DomainError).code).toBe('conflict');
      expect(await store.licenses.findById(second!.id)).toBeNull();
      expect(await store.licenses.findByPurchase(purchaseId)).toEqual(first!);
    });

    test('a key digest in use is refused, but not reported as a purchase conflict', async () => {
      const { store } = opened();
      const { purchaseId, licenses: [first, second] } = await candidates(store, 2);
      const other = await candidates(store, 0);
      const keyHash = newKeyHash();
      await store.licenses.create(first!, keyHash, { purchaseId });

      const error = await store.licenses.create(second!, keyHash, { purchaseId: other.purchaseId }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(Error);
      expect((error as DomainError).code).not.toBe('conflict');
      expect(await store.licenses.findByPurchase(other.purchaseId)).toBeNull();
    });

    test('a license for an unknown purchase is refused', async () => {
      const { store } = opened();
      const { licenses: [license] } = await candidates(store, 1);

      await expect(store.licenses.create(license!, newKeyHash(), { purchaseId: 'pur_unknown' })).rejects.toThrow();

      expect(await store.licenses.findById(license!.id)).toBeNull();
    });

    test('two concurrent licenses for one purchase: exactly one is created, the other gets conflict', async () => {
      const { store } = opened();
      const { purchaseId, licenses: rivals } = await candidates(store, 2);

      const outcomes = await Promise.allSettled(rivals.map((l) => store.licenses.create(l, newKeyHash(), { purchaseId })));

      expect(outcomes.map(codeOf).sort()).toEqual(['conflict', 'created']);
      const winner = rivals[outcomes.findIndex((o) => o.status === 'fulfilled')]!;
      expect(await store.licenses.findByPurchase(purchaseId)).toEqual(winner);
    });

    test('10 concurrent licenses for one purchase across two connections: one created, nine conflicts', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const { purchaseId, licenses: rivals } = await candidates(store, 10);

      const outcomes = await Promise.allSettled(
        rivals.map((l, i) => (i % 2 === 0 ? store : other).licenses.create(l, newKeyHash(), { purchaseId })),
      );

      const codes = outcomes.map(codeOf);
      expect(codes.filter((c) => c === 'created')).toHaveLength(1);
      expect(codes.filter((c) => c === 'conflict')).toHaveLength(9);
      expect(await other.licenses.findByPurchase(purchaseId)).toEqual(rivals[codes.indexOf('created')]!);
    });

    test('a license found by its purchase is a copy', async () => {
      const { store } = opened();
      const { purchaseId, licenses: [license] } = await candidates(store, 1);
      await store.licenses.create(license!, newKeyHash(), { purchaseId });

      (await store.licenses.findByPurchase(purchaseId))!.features.push('tampered');

      expect(await store.licenses.findByPurchase(purchaseId)).toEqual(license!);
    });
  });
}
