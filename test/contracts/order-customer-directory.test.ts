import { describe, expect, test } from 'bun:test';
import { aCustomer, aLicense, givenLicenseParties, T0, unique } from './builders.ts';
import { freshStorePerTest, STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) {
  describe(`CustomerDirectory on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('one entry per seller and customer, with that seller’s licenses only; prefix search in e-mail order', async () => {
      const { store } = opened();
      const mine = await givenLicenseParties(store);
      const theirs = await givenLicenseParties(store);
      const ann = (await store.customers.findOrCreate(aCustomer({ email: `ann-${unique()}@example.com` }))).id;
      const annie = (await store.customers.findOrCreate(aCustomer({ email: `annie-${unique()}@example.com` }))).id;
      const grant = async (parties: typeof mine, customerId: string, issuedAt: number) => {
        const license = aLicense({ ...parties, customerId }, { issuedAt });
        await store.licenses.create(license, `hash_${unique()}`);
        return license;
      };
      const a1 = await grant(mine, ann, T0);
      const a2 = await grant(mine, ann, T0 + 1);
      await grant(theirs, ann, T0 + 2);
      await grant(mine, annie, T0 + 3);

      const newest = await store.customerDirectory.list(mine.developerId, { limit: 10, licensesPerCustomer: 1 });
      const search = await store.customerDirectory.list(mine.developerId, { limit: 1, licensesPerCustomer: 5, emailPrefix: 'ann' });
      const next = await store.customerDirectory.list(mine.developerId, { limit: 1, licensesPerCustomer: 5, emailPrefix: 'ann', after: search.data[0]! });

      expect(newest.data.map((c) => c.customerId)).toEqual([annie, ann, mine.customerId].filter((id) => id !== mine.customerId));
      expect(newest.data[1]!.licenses.map((l) => l.id)).toEqual([a2.id]);
      expect(newest.data[1]!.moreLicenses).toBe(true);
      expect(search.data.map((c) => c.customerId)).toEqual([ann]);
      expect(search.data[0]!.licenses.map((l) => l.id)).toEqual([a2.id, a1.id]);
      expect(search.hasMore).toBe(true);
      expect(next.data.map((c) => c.customerId)).toEqual([annie]);
      expect(await store.customerDirectory.find(mine.developerId, ann)).toEqual({ customerId: ann, email: search.data[0]!.email, firstSeenAt: T0 });
      expect(await store.customerDirectory.find(mine.developerId, theirs.customerId)).toBeNull();
    });
  });
}
