import { describe, expect, test } from 'bun:test';
import type { DomainError } from '../../src/domain/errors.ts';
import { anOutcome, givenCheckout } from './checkout-builders.ts';
import { unique } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

const outcomes = (count: number) => Array.from({ length: count }, (_, i) => anOutcome({ licenseId: `lic_${i}_${unique()}` }));

export function checkoutCompletionContract(factory: StoreFactory): void {
  describe(`CheckoutRepository completion and expiry on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('markComplete stores the outcome, completes the session and returns it as stored', async () => {
      const { store } = opened();
      const session = await givenCheckout(store);
      const outcome = anOutcome();

      const completed = await store.checkouts.markComplete(session.id, outcome);

      expect(completed).toEqual({ ...session, ...outcome, storedStatus: 'complete' });
      expect(await store.checkouts.findById(session.id)).toEqual(completed);
    });

    test("a second completion changes nothing and gets the first one's outcome back", async () => {
      const { store } = opened();
      const session = await givenCheckout(store);
      const first = await store.checkouts.markComplete(session.id, anOutcome());

      const second = await store.checkouts.markComplete(session.id, anOutcome({ paymentId: null }));

      expect(second).toEqual(first);
      expect(await store.checkouts.findById(session.id)).toEqual(first);
    });

    test('an update expecting pending moves a pending session to expired', async () => {
      const { store } = opened();
      const session = await givenCheckout(store);

      await store.checkouts.update(session.id, { storedStatus: 'expired' }, { storedStatus: 'pending' });

      expect(await store.checkouts.findById(session.id)).toEqual({ ...session, storedStatus: 'expired' });
    });

    test('expiring after markComplete leaves the session complete', async () => {
      const { store } = opened();
      const session = await givenCheckout(store);
      const completed = await store.checkouts.markComplete(session.id, anOutcome());

      await store.checkouts.update(session.id, { storedStatus: 'expired' }, { storedStatus: 'pending' });

      expect(await store.checkouts.findById(session.id)).toEqual(completed);
    });

    test('markComplete after expiry completes it: a payment that landed after expiry still bought a license', async () => {
      const { store } = opened();
      const session = await givenCheckout(store);
      await store.checkouts.update(session.id, { storedStatus: 'expired' }, { storedStatus: 'pending' });
      const outcome = anOutcome();

      const completed = await store.checkouts.markComplete(session.id, outcome);

      expect(completed).toEqual({ ...session, ...outcome, storedStatus: 'complete' });
      expect(await store.checkouts.findById(session.id)).toEqual(completed);
    });

    test('completing or expiring one session leaves the others pending', async () => {
      const { store } = opened();
      const completed = await givenCheckout(store);
      const expired = await givenCheckout(store);
      const untouched = await givenCheckout(store);

      await store.checkouts.markComplete(completed.id, anOutcome());
      await store.checkouts.update(expired.id, { storedStatus: 'expired' }, { storedStatus: 'pending' });

      expect(await store.checkouts.findById(untouched.id)).toEqual(untouched);
    });

    test('markComplete of an unknown session throws not_found; expiring one does nothing', async () => {
      const { store } = opened();

      const error = await store.checkouts.markComplete('cs_unknown', anOutcome()).catch((e: DomainError) => e);
      await store.checkouts.update('cs_unknown', { storedStatus: 'expired' }, { storedStatus: 'pending' });

      expect((error as DomainError).code).toBe('not_found');
      expect(await store.checkouts.findById('cs_unknown')).toBeNull();
    });

    test('10 concurrent completions with different licenses: one wins, and every caller is told its license', async () => {
      const { store } = opened();
      const session = await givenCheckout(store);
      const candidates = outcomes(10);

      const results = await Promise.all(candidates.map((o) => store.checkouts.markComplete(session.id, o)));

      const winner = results[0]!;
      expect(candidates.map((o) => o.licenseId)).toContain(winner.licenseId!);
      expect(results.map((r) => r.licenseId)).toEqual(candidates.map(() => winner.licenseId));
      expect(results).toEqual(candidates.map(() => winner));
      expect(await store.checkouts.findById(session.id)).toEqual(winner);
    });

    test('10 concurrent completions raced across two connections: still one winner', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const session = await givenCheckout(store);
      const candidates = outcomes(10);

      const results = await Promise.all(
        candidates.map((o, i) => (i % 2 === 0 ? store : other).checkouts.markComplete(session.id, o)),
      );

      const winner = results[0]!;
      expect(candidates.map((o) => o.licenseId)).toContain(winner.licenseId!);
      expect(results).toEqual(candidates.map(() => winner));
      expect(await other.checkouts.findById(session.id)).toEqual(winner);
    });

    test('expiry racing completion, in either order, ends complete', async () => {
      const { store } = opened();
      const expireFirst = await givenCheckout(store);
      const completeFirst = await givenCheckout(store);

      await Promise.all([store.checkouts.update(expireFirst.id, { storedStatus: 'expired' }, { storedStatus: 'pending' }), store.checkouts.markComplete(expireFirst.id, anOutcome())]);
      await Promise.all([store.checkouts.markComplete(completeFirst.id, anOutcome()), store.checkouts.update(completeFirst.id, { storedStatus: 'expired' }, { storedStatus: 'pending' })]);

      expect((await store.checkouts.findById(expireFirst.id))!.storedStatus).toBe('complete');
      expect((await store.checkouts.findById(completeFirst.id))!.storedStatus).toBe('complete');
    });
  });
}
