import { describe, expect, test } from 'bun:test';
import { aSavedCard, givenCardOwners } from './checkout-builders.ts';
import { aCustomer, givenDeveloper, T0 } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

export function cardRepositoryContract(factory: StoreFactory): void {
  describe(`CardRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a saved card comes back as stored and is listed for its customer and developer', async () => {
      const { store } = opened();
      const owners = await givenCardOwners(store);
      const card = aSavedCard(owners, { processorCustomerId: null });

      const saved = await store.cards.save(card);

      expect(saved).toEqual(card);
      expect(await store.cards.listFor(owners.customerId, owners.developerId)).toEqual([card]);
    });

    test('saving a payment method again refreshes its details but keeps its id, customer and creation time', async () => {
      const { store } = opened();
      const owners = await givenCardOwners(store);
      const first = await store.cards.save(aSavedCard(owners, { processorPaymentMethodId: 'pm_same' }));
      const refreshed = aSavedCard(owners, {
        processorPaymentMethodId: 'pm_same',
        brand: 'mastercard',
        last4: '4444',
        expMonth: 1,
        expYear: 2031,
        processorCustomerId: 'cus_stripe_new',
        createdAt: T0 + 1_000,
      });

      const saved = await store.cards.save(refreshed);

      const expected = { ...refreshed, id: first.id, customerId: first.customerId, createdAt: first.createdAt };
      expect(saved).toEqual(expected);
      expect(await store.cards.listFor(owners.customerId, owners.developerId)).toEqual([expected]);
    });

    test('a card keeps the phone its checkout brought, through save, findById and listFor', async () => {
      const { store } = opened();
      const owners = await givenCardOwners(store);
      const card = aSavedCard(owners, { phone: '+15555550001' });

      expect(await store.cards.save(card)).toEqual(card);

      expect((await store.cards.findById(card.id))!.phone).toBe('+15555550001');
      expect((await store.cards.listFor(owners.customerId, owners.developerId)).map((c) => c.phone)).toEqual(['+15555550001']);
    });

    test('saving a payment method again keeps the phone of its first save', async () => {
      const { store } = opened();
      const owners = await givenCardOwners(store);
      const first = await store.cards.save(aSavedCard(owners, { processorPaymentMethodId: 'pm_same', phone: '+15555550001' }));

      const again = await store.cards.save(aSavedCard(owners, { processorPaymentMethodId: 'pm_same', phone: '+15555550666', last4: '4444' }));

      expect(again).toMatchObject({ id: first.id, last4: '4444', phone: '+15555550001' });
      expect((await store.cards.findById(first.id))!.phone).toBe('+15555550001');
    });

    test('the same payment method id with another developer is another card', async () => {
      const { store } = opened();
      const owners = await givenCardOwners(store);
      const { developer: otherSeller } = await givenDeveloper(store);
      const mine = aSavedCard(owners, { processorPaymentMethodId: 'pm_same' });
      const theirs = aSavedCard({ ...owners, developerId: otherSeller.id }, { processorPaymentMethodId: 'pm_same' });

      await store.cards.save(mine);
      await store.cards.save(theirs);

      expect(await store.cards.listFor(owners.customerId, owners.developerId)).toEqual([mine]);
      expect(await store.cards.listFor(owners.customerId, otherSeller.id)).toEqual([theirs]);
    });

    test('cards are listed newest first, and the later saved first when made at the same time', async () => {
      const { store } = opened();
      const owners = await givenCardOwners(store);
      const oldest = aSavedCard(owners, { createdAt: T0 });
      const tiedEarlier = aSavedCard(owners, { createdAt: T0 + 5 });
      const newest = aSavedCard(owners, { createdAt: T0 + 9 });
      const tiedLater = aSavedCard(owners, { createdAt: T0 + 5 });
      for (const card of [oldest, tiedEarlier, newest, tiedLater]) await store.cards.save(card);

      const listed = await store.cards.listFor(owners.customerId, owners.developerId);

      expect(listed.map((c) => c.id)).toEqual([newest.id, tiedLater.id, tiedEarlier.id, oldest.id]);
    });

    test("another customer's cards, or another developer's, are not listed", async () => {
      const { store } = opened();
      const owners = await givenCardOwners(store);
      const otherBuyer = await store.customers.findOrCreate(aCustomer());
      const { developer: otherSeller } = await givenDeveloper(store);
      await store.cards.save(aSavedCard({ ...owners, customerId: otherBuyer.id }));
      await store.cards.save(aSavedCard({ ...owners, developerId: otherSeller.id }));

      expect(await store.cards.listFor(owners.customerId, owners.developerId)).toEqual([]);
    });

    test('a card for an unknown customer or developer is refused', async () => {
      const { store } = opened();
      const owners = await givenCardOwners(store);

      await expect(store.cards.save(aSavedCard({ ...owners, customerId: 'cus_unknown' }))).rejects.toThrow();
      await expect(store.cards.save(aSavedCard({ ...owners, developerId: 'dev_unknown' }))).rejects.toThrow();

      expect(await store.cards.listFor('cus_unknown', owners.developerId)).toEqual([]);
      expect(await store.cards.listFor(owners.customerId, 'dev_unknown')).toEqual([]);
    });

    test('a card is found by its id; an unknown id finds nothing', async () => {
      const { store } = opened();
      const owners = await givenCardOwners(store);
      const card = aSavedCard(owners);
      await store.cards.save(card);
      await store.cards.save(aSavedCard(owners));

      expect(await store.cards.findById(card.id)).toEqual(card);
      expect(await store.cards.findById('card_unknown')).toBeNull();
    });

    test('a card found by its id is a copy', async () => {
      const { store } = opened();
      const card = await store.cards.save(aSavedCard(await givenCardOwners(store)));

      (await store.cards.findById(card.id))!.last4 = '0000';

      expect(await store.cards.findById(card.id)).toEqual(card);
    });

    test('cards are copies: mutating what went in or came out does not change the store', async () => {
      const { store } = opened();
      const owners = await givenCardOwners(store);
      const card = aSavedCard(owners);
      const expected = structuredClone(card);

      (await store.cards.save(card)).last4 = '0000';
      card.brand = 'amex';
      (await store.cards.listFor(owners.customerId, owners.developerId))[0]!.expYear = 1999;

      expect(await store.cards.listFor(owners.customerId, owners.developerId)).toEqual([expected]);
    });
  });
}
