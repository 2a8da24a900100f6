import { describe, expect, test } from 'bun:test';
import type { Subscription } from '../../src/domain/subscription.ts';
import type { Store } from '../../src/ports/deps.ts';
import { aCustomer, aLicense, DAY, givenLicenseParties, T0, unique } from './builders.ts';
import { anOrder } from './order-builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';
import { aSubscription } from './subscription-repository.contract.ts';

/** A seller, a buyer, another buyer; `subscribe` stores a subscription of one of them on a fresh license. */
async function givenBuyers(store: Store) {
  const parties = await givenLicenseParties(store);
  const other = (await store.customers.findOrCreate(aCustomer({ email: `other-${unique()}@example.com` }))).id;
  const licenseOf = async (customerId: string) => {
    const license = aLicense({ ...parties, customerId });
    await store.licenses.create(license, `hash_${unique()}`);
    return license.id;
  };
  const subscribe = async (overrides: Partial<Subscription> = {}, customerId = parties.customerId) =>
    store.subscriptions.create(aSubscription({ ...parties, customerId, licenseId: await licenseOf(customerId) }, overrides));
  return { parties, other, licenseOf, subscribe };
}

/** The buyer's side of the subscription and order repositories (docs/customers.md): their lists, and the claim that orders cancels and resumes. */
export function customerReadsContract(factory: StoreFactory): void {
  describe(`Buyer reads and changes on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a customer finds and lists only their own subscriptions, newest first', async () => {
      const { store } = opened();
      const { parties, other, subscribe } = await givenBuyers(store);
      const old = await subscribe({ createdAt: T0 });
      const recent = await subscribe({ createdAt: T0 + DAY });
      const theirs = await subscribe({}, other);

      expect(await store.subscriptions.listByCustomer(parties.customerId, 10)).toEqual([recent, old]);
      expect(await store.subscriptions.listByCustomer(parties.customerId, 1)).toEqual([recent]);
      expect(await store.subscriptions.findForCustomer(parties.customerId, old.id)).toEqual(old);
      expect(await store.subscriptions.findForCustomer(parties.customerId, theirs.id)).toBeNull();
      expect(await store.subscriptions.findForCustomer(parties.customerId, 'sub_unknown')).toBeNull();
    });

    test('a claim is taken once: not for the state it is in, not by another customer, not while another is held', async () => {
      const { store } = opened();
      const { parties, other, subscribe } = await givenBuyers(store);
      const s = await subscribe();

      expect(await store.subscriptions.claimBuyerChange(parties.customerId, s.id, false, T0 + 1, T0)).toBeNull();
      expect(await store.subscriptions.claimBuyerChange(other, s.id, true, T0 + 1, T0)).toBeNull();
      expect(await store.subscriptions.claimBuyerChange(parties.customerId, s.id, true, T0 + 1, T0)).toEqual(s);
      expect(await store.subscriptions.claimBuyerChange(parties.customerId, s.id, true, T0 + 2, T0)).toBeNull();

      const done = await store.subscriptions.finishBuyerChange(s.id, true, T0 + 1, T0 + 5);
      expect(done).toEqual({ ...s, cancelAtPeriodEnd: true, updatedAt: T0 + 5 });
      expect(await store.subscriptions.claimBuyerChange(parties.customerId, s.id, false, T0 + 6, T0)).toEqual(done);
    });

    test('a released claim changes nothing and frees the next; a stale claim is taken over and its late finish writes nothing', async () => {
      const { store } = opened();
      const { parties, subscribe } = await givenBuyers(store);
      const s = await subscribe();

      await store.subscriptions.claimBuyerChange(parties.customerId, s.id, true, T0 + 1, T0);
      await store.subscriptions.releaseBuyerChange(s.id, T0 + 1);
      expect(await store.subscriptions.findForCustomer(parties.customerId, s.id)).toEqual(s);

      await store.subscriptions.claimBuyerChange(parties.customerId, s.id, true, T0 + 2, T0);
      expect(await store.subscriptions.claimBuyerChange(parties.customerId, s.id, true, T0 + 100, T0 + 3)).toEqual(s);
      expect(await store.subscriptions.finishBuyerChange(s.id, true, T0 + 2, T0 + 101)).toBeNull();
      expect(await store.subscriptions.finishBuyerChange(s.id, true, T0 + 100, T0 + 101)).toMatchObject({ cancelAtPeriodEnd: true });
    });

    test('a canceled subscription is never claimed', async () => {
      const { store } = opened();
      const { parties, subscribe } = await givenBuyers(store);
      const s = await subscribe({ status: 'canceled', canceledAt: T0 });

      expect(await store.subscriptions.claimBuyerChange(parties.customerId, s.id, true, T0 + 1, T0)).toBeNull();
    });

    test('20 concurrent claims of one subscription: exactly one wins', async () => {
      const { store } = opened();
      const { parties, subscribe } = await givenBuyers(store);
      const s = await subscribe();

      const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => store.subscriptions.claimBuyerChange(parties.customerId, s.id, true, T0 + 1 + i, T0)));

      expect(claims.filter((c) => c !== null)).toHaveLength(1);
    });

    test('a customer lists their own orders across sellers, newest first, with the receipt kept', async () => {
      const { store } = opened();
      const { parties, other, licenseOf } = await givenBuyers(store);
      const mine = await licenseOf(parties.customerId);
      const first = await store.orders.record(anOrder({ ...parties, licenseId: mine }, { createdAt: T0, receiptUrl: 'https://pay.stripe.com/receipts/x' }));
      const second = await store.orders.record(anOrder({ ...parties, licenseId: mine }, { createdAt: T0 + DAY }));
      await store.orders.record(anOrder({ ...parties, customerId: other, licenseId: await licenseOf(other) }));

      expect(await store.orders.listByCustomer(parties.customerId, 10)).toEqual([second, first]);
      expect(first.receiptUrl).toBe('https://pay.stripe.com/receipts/x');
      expect(await store.orders.listByCustomer(parties.customerId, 1)).toEqual([second]);
    });
  });
}
