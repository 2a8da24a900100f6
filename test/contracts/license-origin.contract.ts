import { describe, expect, test } from 'bun:test';
import type { DomainError } from '../../src/domain/errors.ts';
import type { License } from '../../src/domain/license.ts';
import type { Store } from '../../src/ports/deps.ts';
import { aLicense, givenLicenseParties, unique } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

const newKeyHash = () => `hash_${unique()}`;
const codeOf = (outcome: PromiseSettledResult<void>) =>
  outcome.status === 'rejected' ? (outcome.reason as DomainError).code : 'created';

/** Licenses for one buyer, ready to be created. */
async function candidates(store: Store, count: number): Promise<License[]> {
  const parties = await givenLicenseParties(store);
  return Array.from({ length: count }, () => aLicense(parties));
}

export function licenseOriginContract(factory: StoreFactory): void {
  describe(`LicenseRepository checkout origin on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a license created for a checkout session is found by it, field for field', async () => {
      const { store } = opened();
      const [license] = await candidates(store, 1);

      await store.licenses.create(license!, newKeyHash(), { checkoutSessionId: 'cs_paid' });

      expect(await store.licenses.findByCheckoutSession('cs_paid')).toEqual(license!);
      expect(await store.licenses.findById(license!.id)).toEqual(license!);
    });

    test('a session without a license, or licenses without a session, find nothing', async () => {
      const { store } = opened();
      const [granted, alsoGranted] = await candidates(store, 2);

      await store.licenses.create(granted!, newKeyHash());
      await store.licenses.create(alsoGranted!, newKeyHash(), {});

      expect(await store.licenses.findByCheckoutSession('cs_unpaid')).toBeNull();
      expect(await store.licenses.findById(granted!.id)).toEqual(granted!);
      expect(await store.licenses.findById(alsoGranted!.id)).toEqual(alsoGranted!);
    });

    test('a second license for one checkout session throws conflict and is not stored', async () => {
      const { store } = opened();
      const [first, second] = await candidates(store, 2);
      await store.licenses.create(first!, newKeyHash(), { checkoutSessionId: 'cs_paid' });

      const error = await store.licenses.create(second!, newKeyHash(), { checkoutSessionId: 'cs_paid' }).catch((e: DomainError) => e);

      expect((error as DomainError).code).toBe('conflict');
      expect(await store.licenses.findById(second!.id)).toBeNull();
      expect(await store.licenses.findByCheckoutSession('cs_paid')).toEqual(first!);
    });

    test('a key digest in use is refused, but not reported as a checkout conflict', async () => {
      const { store } = opened();
      const [first, second] = await candidates(store, 2);
      const keyHash = newKeyHash();
      await store.licenses.create(first!, keyHash, { checkoutSessionId: 'cs_one' });

      const error = await store.licenses.create(second!, keyHash, { checkoutSessionId: 'cs_two' }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(Error);
      expect((error as DomainError).code).not.toBe('conflict');
      expect(await store.licenses.findByCheckoutSession('cs_two')).toBeNull();
    });

    test('two concurrent licenses for one checkout session: exactly one is created, the other gets conflict', async () => {
      const { store } = opened();
      const rivals = await candidates(store, 2);

      const outcomes = await Promise.allSettled(rivals.map((l) => store.licenses.create(l, newKeyHash(), { checkoutSessionId: 'cs_raced' })));

      expect(outcomes.map(codeOf).sort()).toEqual(['conflict', 'created']);
      const winner = rivals[outcomes.findIndex((o) => o.status === 'fulfilled')]!;
      expect(await store.licenses.findByCheckoutSession('cs_raced')).toEqual(winner);
    });

    test('10 concurrent licenses for one session across two connections: one created, nine conflicts', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const rivals = await candidates(store, 10);

      const outcomes = await Promise.allSettled(
        rivals.map((l, i) => (i % 2 === 0 ? store : other).licenses.create(l, newKeyHash(), { checkoutSessionId: 'cs_raced' })),
      );

      const codes = outcomes.map(codeOf);
      expect(codes.filter((c) => c === 'created')).toHaveLength(1);
      expect(codes.filter((c) => c === 'conflict')).toHaveLength(9);
      const winner = rivals[codes.indexOf('created')]!;
      expect(await other.licenses.findByCheckoutSession('cs_raced')).toEqual(winner);
    });

    test('a license found by its session is a copy', async () => {
      const { store } = opened();
      const [license] = await candidates(store, 1);
      await store.licenses.create(license!, newKeyHash(), { checkoutSessionId: 'cs_paid' });

      (await store.licenses.findByCheckoutSession('cs_paid'))!.features.push('tampered');

      expect(await store.licenses.findByCheckoutSession('cs_paid')).toEqual(license!);
    });
  });
}
