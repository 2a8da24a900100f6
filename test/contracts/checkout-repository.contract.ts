import { describe, expect, test } from 'bun:test';
import { aCheckoutSession, anOutcome, givenCheckout, givenSeller } from './checkout-builders.ts';
import { T0, unique } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

export function checkoutRepositoryContract(factory: StoreFactory): void {
  describe(`CheckoutRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a session reads back field for field', async () => {
      const { store } = opened();
      const session = await givenCheckout(store, { email: null, currency: 'jpy', amount: 500, processor: 'stripe' });

      expect(await store.checkouts.findById(session.id)).toEqual(session);
    });

    test('an update records the processor id and address, and the session is found by that id', async () => {
      const { store } = opened();
      const session = await givenCheckout(store);
      const processorSessionId = `cs_test_${unique()}`;

      await store.checkouts.update(session.id, { processorSessionId, checkoutUrl: 'https://checkout.example.com/pay' });

      const expected = { ...session, processorSessionId, checkoutUrl: 'https://checkout.example.com/pay' };
      expect(await store.checkouts.findById(session.id)).toEqual(expected);
      expect(await store.checkouts.findByProcessorSessionId(processorSessionId)).toEqual(expected);
    });

    test('two sessions cannot share a processor session id, but many may have none', async () => {
      const { store } = opened();
      const seller = await givenSeller(store);
      const first = aCheckoutSession(seller, { processorSessionId: 'cs_test_shared' });
      const twin = aCheckoutSession(seller, { processorSessionId: 'cs_test_shared' });
      const unassigned = [aCheckoutSession(seller), aCheckoutSession(seller)];
      await store.checkouts.create(first);
      for (const session of unassigned) await store.checkouts.create(session);

      await expect(store.checkouts.create(twin)).rejects.toThrow();
      await expect(store.checkouts.update(unassigned[0]!.id, { processorSessionId: 'cs_test_shared', checkoutUrl: 'https://x.example.com' })).rejects.toThrow();

      expect(await store.checkouts.findById(twin.id)).toBeNull();
      expect(await store.checkouts.findByProcessorSessionId('cs_test_shared')).toEqual(first);
      expect(await store.checkouts.findById(unassigned[0]!.id)).toEqual(unassigned[0]!);
    });

    test('a completed session is found by the payment that paid it', async () => {
      const { store } = opened();
      const session = await givenCheckout(store);
      await givenCheckout(store);
      const outcome = anOutcome({ paymentId: 'pi_paid' });

      const completed = await store.checkouts.markComplete(session.id, outcome);

      expect(await store.checkouts.findByPaymentId('pi_paid')).toEqual(completed);
    });

    test('unknown ids find nothing', async () => {
      const { store } = opened();
      await givenCheckout(store, { processorSessionId: `cs_test_${unique()}` });

      expect(await store.checkouts.findById('cs_unknown')).toBeNull();
      expect(await store.checkouts.findByProcessorSessionId('cs_test_unknown')).toBeNull();
      expect(await store.checkouts.findByPaymentId('pi_unknown')).toBeNull();
    });

    test('an update records when the processor was asked, and changes nothing else', async () => {
      const { store } = opened();
      const session = await givenCheckout(store);
      const other = await givenCheckout(store);

      await store.checkouts.update(session.id, { reconciledAt: T0 + 5_000 });
      await store.checkouts.update('cs_unknown', { reconciledAt: T0 + 5_000 });

      expect(await store.checkouts.findById(session.id)).toEqual({ ...session, reconciledAt: T0 + 5_000 });
      expect(await store.checkouts.findById(other.id)).toEqual(other);
    });

    test('a session for an unknown developer or product is refused', async () => {
      const { store } = opened();
      const seller = await givenSeller(store);
      const noProduct = aCheckoutSession({ ...seller, productId: 'prod_unknown' });
      const noDeveloper = aCheckoutSession({ ...seller, developerId: 'dev_unknown' });

      await expect(store.checkouts.create(noProduct)).rejects.toThrow();
      await expect(store.checkouts.create(noDeveloper)).rejects.toThrow();

      expect(await store.checkouts.findById(noProduct.id)).toBeNull();
      expect(await store.checkouts.findById(noDeveloper.id)).toBeNull();
    });

    test('a session id in use is refused', async () => {
      const { store } = opened();
      const session = await givenCheckout(store);
      const twin = { ...session, amount: 1 };

      await expect(store.checkouts.create(twin)).rejects.toThrow();

      expect(await store.checkouts.findById(session.id)).toEqual(session);
    });

    test('sessions are copies: mutating what went in or came out does not change the store', async () => {
      const { store } = opened();
      const session = await givenCheckout(store);
      const expected = structuredClone(session);
      session.amount = 1;

      (await store.checkouts.findById(expected.id))!.storedStatus = 'complete';
      (await store.checkouts.markComplete(expected.id, anOutcome({ licenseId: 'lic_a' }))).licenseId = 'lic_tampered';

      expect((await store.checkouts.findById(expected.id))!.licenseId).toBe('lic_a');
      expect((await store.checkouts.findById(expected.id))!.amount).toBe(expected.amount);
    });

    test('an update expecting pending expires a pending session; a completed one stays as it is (null)', async () => {
      const { store } = opened();
      const pending = await givenCheckout(store);
      const paid = await givenCheckout(store);
      const completed = await store.checkouts.markComplete(paid.id, anOutcome());
      const expire = { storedStatus: 'expired' } as const;
      const whilePending = { storedStatus: 'pending' } as const;

      expect(await store.checkouts.update(pending.id, expire, whilePending)).toEqual({ ...pending, storedStatus: 'expired' });
      expect(await store.checkouts.update(paid.id, expire, whilePending)).toBeNull();
      expect(await store.checkouts.update('cs_unknown', expire, whilePending)).toBeNull();
      expect(await store.checkouts.findById(paid.id)).toEqual(completed);
      expect(await store.checkouts.update(pending.id, { reconciledAt: T0 + 1 }, { licenseId: null, storedStatus: 'expired' })).toMatchObject({ reconciledAt: T0 + 1 });
    });

    test('of 20 concurrent expiries expecting pending, exactly one wins', async () => {
      const { store, connectAgain } = opened();
      const session = await givenCheckout(store);
      const other = await connectAgain();

      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? other : store).checkouts.update(session.id, { storedStatus: 'expired', reconciledAt: i }, { storedStatus: 'pending' })),
      );

      const winners = results.filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      expect(await store.checkouts.findById(session.id)).toEqual(winners[0]!);
    });
  });
}
