import { describe, expect, test } from 'bun:test';
import { aCustomer, T0 } from './builders.ts';
import { aSavedCard, givenCardOwners } from './checkout-builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

export function customerRepositoryContract(factory: StoreFactory): void {
  describe(`CustomerRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a new e-mail creates the candidate, which reads back field for field', async () => {
      const { store } = opened();
      const candidate = aCustomer();
      const noPhone = aCustomer({ phone: null });

      const created = await store.customers.findOrCreate(candidate);
      await store.customers.findOrCreate(noPhone);

      expect(created).toEqual(candidate);
      expect(await store.customers.findById(candidate.id)).toEqual(candidate);
      expect(await store.customers.findById(noPhone.id)).toEqual(noPhone);
    });

    test('a known e-mail returns the existing customer and stores nothing new', async () => {
      const { store } = opened();
      const existing = await store.customers.findOrCreate(aCustomer({ email: 'buyer@example.com' }));
      const latecomer = aCustomer({ email: 'buyer@example.com', phone: '+15555559999' });

      const found = await store.customers.findOrCreate(latecomer);

      expect(found).toEqual(existing);
      expect(await store.customers.findById(latecomer.id)).toBeNull();
    });

    test('20 concurrent calls with one e-mail all get the same single customer', async () => {
      const { store } = opened();
      const candidates = Array.from({ length: 20 }, () => aCustomer({ email: 'rush@example.com' }));

      const results = await Promise.all(candidates.map((c) => store.customers.findOrCreate(c)));

      const winner = results[0]!;
      expect(results.every((r) => r.id === winner.id)).toBe(true);
      expect(candidates.map((c) => c.id)).toContain(winner.id);
      const stored = await Promise.all(candidates.map((c) => store.customers.findById(c.id)));
      expect(stored.filter((c) => c !== null)).toEqual([winner]);
    });

    test('addPhone confirms a first phone for a customer without a confirmed one, once', async () => {
      const { store } = opened();
      const customer = await store.customers.findOrCreate(aCustomer({ phone: null, phoneVerifiedAt: null }));

      expect(await store.customers.addPhone(customer.id, '+15555550001', T0 + 1)).toBe(true);
      expect(await store.customers.addPhone(customer.id, '+15555550002', T0 + 2)).toBe(false);

      expect(await store.customers.findById(customer.id)).toEqual({ ...customer, phone: '+15555550001', phoneVerifiedAt: T0 + 1 });
    });

    test('addPhone replaces an unconfirmed phone (one an old checkout left), never a confirmed one', async () => {
      const { store } = opened();
      const planted = await store.customers.findOrCreate(aCustomer({ phone: '+15555550666', phoneVerifiedAt: null }));
      const confirmed = await store.customers.findOrCreate(aCustomer({ phone: '+15555550001' }));

      expect(await store.customers.addPhone(planted.id, '+15555550001', T0 + 1)).toBe(true);
      expect(await store.customers.addPhone(confirmed.id, '+15555559999', T0 + 1)).toBe(false);

      expect(await store.customers.findById(planted.id)).toEqual({ ...planted, phone: '+15555550001', phoneVerifiedAt: T0 + 1 });
      expect(await store.customers.findById(confirmed.id)).toEqual(confirmed);
    });

    test('addPhone changes only the customer it names; an unknown id is false', async () => {
      const { store } = opened();
      const named = await store.customers.findOrCreate(aCustomer({ phone: null, phoneVerifiedAt: null }));
      const other = await store.customers.findOrCreate(aCustomer({ phone: null, phoneVerifiedAt: null }));

      await store.customers.addPhone(named.id, '+15555550001', T0);
      expect(await store.customers.addPhone('cus_unknown', '+15555550001', T0)).toBe(false);

      expect(await store.customers.findById(other.id)).toEqual(other);
      expect(await store.customers.findById('cus_unknown')).toBeNull();
    });

    test('20 concurrent addPhone with different phones: exactly one wins and its phone is the confirmed one', async () => {
      const { store, connectAgain } = opened();
      const again = await connectAgain();
      const customer = await store.customers.findOrCreate(aCustomer({ phone: null, phoneVerifiedAt: null }));
      const phones = Array.from({ length: 20 }, (_, i) => `+1555555${String(1000 + i)}`);

      const results = await Promise.all(phones.map((phone, i) => (i % 2 ? again : store).customers.addPhone(customer.id, phone, T0)));

      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = phones[results.indexOf(true)];
      expect((await store.customers.findById(customer.id))!.phone).toBe(winner!);
    });

    test('changePhone never moves an unconfirmed phone', async () => {
      const { store } = opened();
      const customer = await store.customers.findOrCreate(aCustomer({ phone: '+15555550666', phoneVerifiedAt: null }));
      expect(await store.customers.changePhone(customer.id, '+15555550666', '+15555550002', T0)).toBe(false);
      expect(await store.customers.findById(customer.id)).toEqual(customer);
    });

    test('changePhone moves the phone and the cards saved under the old phone, only those', async () => {
      const { store } = opened();
      const owners = await givenCardOwners(store, { phone: '+15555550001' });
      const other = await store.customers.findOrCreate(aCustomer({ phone: '+15555550001' }));
      const ownCard = await store.cards.save(aSavedCard(owners, { phone: '+15555550001' }));
      const strayCard = await store.cards.save(aSavedCard(owners, { phone: '+15555550666' }));
      const othersCard = await store.cards.save(aSavedCard({ ...owners, customerId: other.id }, { phone: '+15555550001' }));

      expect(await store.customers.changePhone(owners.customerId, '+15555550001', '+15555550002', T0 + 5)).toBe(true);

      expect((await store.customers.findById(owners.customerId))!).toMatchObject({ phone: '+15555550002', phoneVerifiedAt: T0 + 5 });
      expect(await store.cards.findById(ownCard.id)).toEqual({ ...ownCard, phone: '+15555550002' });
      expect(await store.cards.findById(strayCard.id)).toEqual(strayCard);
      expect(await store.cards.findById(othersCard.id)).toEqual(othersCard);
      expect(await store.customers.findById(other.id)).toEqual(other);
    });

    test('changePhone from a phone no longer on file changes nothing', async () => {
      const { store } = opened();
      const owners = await givenCardOwners(store, { phone: '+15555550001' });
      const card = await store.cards.save(aSavedCard(owners, { phone: '+15555550001' }));
      const before = await store.customers.findById(owners.customerId);

      expect(await store.customers.changePhone(owners.customerId, '+15555550009', '+15555550002', T0)).toBe(false);
      expect(await store.customers.changePhone('cus_unknown', '+15555550001', '+15555550002', T0)).toBe(false);

      expect(await store.customers.findById(owners.customerId)).toEqual(before);
      expect(await store.cards.findById(card.id)).toEqual(card);
    });

    test('concurrent changePhone from the same phone to different ones: exactly one wins, the cards follow it', async () => {
      const { store, connectAgain } = opened();
      const again = await connectAgain();
      const owners = await givenCardOwners(store, { phone: '+15555550001' });
      const card = await store.cards.save(aSavedCard(owners, { phone: '+15555550001' }));
      const targets = Array.from({ length: 10 }, (_, i) => `+1555555${String(2000 + i)}`);

      const results = await Promise.all(
        targets.map((to, i) => (i % 2 ? again : store).customers.changePhone(owners.customerId, '+15555550001', to, T0)),
      );

      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = targets[results.indexOf(true)]!;
      expect((await store.customers.findById(owners.customerId))!.phone).toBe(winner);
      expect((await store.cards.findById(card.id))!.phone).toBe(winner);
    });

    test('an unknown id finds nothing', async () => {
      const { store } = opened();
      await store.customers.findOrCreate(aCustomer());

      expect(await store.customers.findById('cus_unknown')).toBeNull();
    });

    test('a customer is found by the e-mail as stored; an unknown e-mail finds nothing', async () => {
      const { store } = opened();
      const customer = await store.customers.findOrCreate(aCustomer({ email: 'buyer@example.com' }));
      await store.customers.findOrCreate(aCustomer());

      expect(await store.customers.findByEmail('buyer@example.com')).toEqual(customer);
      expect(await store.customers.findByEmail('nobody@example.com')).toBeNull();
    });

    test('a customer found by e-mail is a copy', async () => {
      const { store } = opened();
      const customer = await store.customers.findOrCreate(aCustomer({ email: 'buyer@example.com' }));

      (await store.customers.findByEmail('buyer@example.com'))!.phone = null;

      expect(await store.customers.findByEmail('buyer@example.com')).toEqual(customer);
    });

    test('customers are copies: mutating what came out does not change the store', async () => {
      const { store } = opened();
      const candidate = aCustomer();
      const expected = structuredClone(candidate);

      const created = await store.customers.findOrCreate(candidate);
      created.email = 'changed@example.com';
      candidate.phone = null;
      (await store.customers.findById(expected.id))!.phone = '+10000000000';

      expect(await store.customers.findById(expected.id)).toEqual(expected);
    });
  });
}
