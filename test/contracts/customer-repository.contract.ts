import { describe, expect, test } from 'bun:test';
import { aCustomer } from './builders.ts';
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

    test('setPhone records the phone number, and the latest one wins', async () => {
      const { store } = opened();
      const customer = await store.customers.findOrCreate(aCustomer({ phone: null }));

      await store.customers.setPhone(customer.id, '+15555550001');
      await store.customers.setPhone(customer.id, '+15555550002');

      expect(await store.customers.findById(customer.id)).toEqual({ ...customer, phone: '+15555550002' });
    });

    test('setPhone changes only the customer it names', async () => {
      const { store } = opened();
      const named = await store.customers.findOrCreate(aCustomer());
      const other = await store.customers.findOrCreate(aCustomer());

      await store.customers.setPhone(named.id, '+15555550001');
      await store.customers.setPhone('cus_unknown', '+15555550001');

      expect(await store.customers.findById(other.id)).toEqual(other);
      expect(await store.customers.findById('cus_unknown')).toBeNull();
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
