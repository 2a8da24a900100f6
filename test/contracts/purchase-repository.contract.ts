import { describe, expect, test } from 'bun:test';
import { T0, unique } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';
import { aPurchase, givenPurchase, givenPurchaseParties } from './terminal-builders.ts';

export function purchaseRepositoryContract(factory: StoreFactory): void {
  describe(`PurchaseRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a purchase reads back field for field', async () => {
      const { store } = opened();
      const { purchase } = await givenPurchase(store, { amount: 500, currency: 'jpy' });

      expect(await store.purchases.findById(purchase.id)).toEqual(purchase);
    });

    test('unknown ids find nothing', async () => {
      const { store } = opened();
      await givenPurchase(store);

      expect(await store.purchases.findById('pur_unknown')).toBeNull();
      expect(await store.purchases.findByPaymentId('pi_unknown')).toBeNull();
    });

    test('a purchase id in use, or an unknown customer, developer, product or card, is refused', async () => {
      const { store } = opened();
      const { purchase, parties } = await givenPurchase(store);
      const refused = [
        { ...purchase, amount: 1 },
        aPurchase({ ...parties, customerId: 'cus_unknown' }),
        aPurchase({ ...parties, developerId: 'dev_unknown' }),
        aPurchase({ ...parties, productId: 'prod_unknown' }),
        aPurchase(parties, { cardId: 'card_unknown' }),
      ];

      for (const candidate of refused) await expect(store.purchases.create(candidate)).rejects.toThrow();

      expect(await store.purchases.findById(purchase.id)).toEqual(purchase);
      for (const candidate of refused.slice(1)) expect(await store.purchases.findById(candidate.id)).toBeNull();
    });

    test('markPaid records the payment and the license of a charging purchase, found then by its payment', async () => {
      const { store } = opened();
      const { purchase, card } = await givenPurchase(store);
      const { purchase: charging } = await store.purchases.beginCharge(purchase.id, card.id, T0 + 10, T0);
      const outcome = { paymentId: `pi_${unique()}`, licenseId: `lic_${unique()}` };

      await store.purchases.markPaid(purchase.id, outcome);

      const paid = { ...charging, status: 'paid' as const, ...outcome };
      expect(await store.purchases.findById(purchase.id)).toEqual(paid);
      expect(await store.purchases.findByPaymentId(outcome.paymentId)).toEqual(paid);
    });

    test('markPaid does nothing to a purchase that is not charging: pending, or already paid', async () => {
      const { store } = opened();
      const { purchase: pending } = await givenPurchase(store);
      const { purchase, card } = await givenPurchase(store);
      await store.purchases.beginCharge(purchase.id, card.id, T0 + 10, T0);
      await store.purchases.markPaid(purchase.id, { paymentId: 'pi_first', licenseId: 'lic_first' });
      const paid = await store.purchases.findById(purchase.id);

      await store.purchases.markPaid(pending.id, { paymentId: 'pi_stray', licenseId: 'lic_stray' });
      await store.purchases.markPaid(purchase.id, { paymentId: 'pi_second', licenseId: 'lic_second' });

      expect(await store.purchases.findById(pending.id)).toEqual(pending);
      expect(await store.purchases.findById(purchase.id)).toEqual(paid);
      expect(await store.purchases.findByPaymentId('pi_second')).toBeNull();
    });

    test('a paid purchase starts no charge', async () => {
      const { store } = opened();
      const { purchase, card } = await givenPurchase(store);
      await store.purchases.beginCharge(purchase.id, card.id, T0 + 10, T0);
      await store.purchases.markPaid(purchase.id, { paymentId: 'pi_paid', licenseId: 'lic_paid' });
      const paid = await store.purchases.findById(purchase.id);

      const later = await store.purchases.beginCharge(purchase.id, card.id, T0 + 999_999, T0 + 999_999);

      expect(later).toEqual({ started: false, purchase: paid! });
    });

    test('purchases are copies: mutating what went in or came out does not change the store', async () => {
      const { store } = opened();
      const { parties, card } = await givenPurchaseParties(store);
      const purchase = aPurchase(parties);
      const expected = structuredClone(purchase);
      await store.purchases.create(purchase);

      purchase.amount = 1;
      (await store.purchases.findById(expected.id))!.status = 'paid';
      (await store.purchases.beginCharge(expected.id, card.id, T0, T0)).purchase.attempt = 99;

      expect(await store.purchases.findById(expected.id)).toEqual({ ...expected, status: 'charging', attempt: 1, chargingSince: T0, cardId: card.id });
    });
  });
}
