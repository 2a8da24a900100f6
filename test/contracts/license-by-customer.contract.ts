import { describe, expect, test } from 'bun:test';
import { aLicense, DAY, givenLicenseParties, T0, unique, bindMachine } from './builders.ts';
import { givenSeller } from './checkout-builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

const newKeyHash = () => `hash_${unique()}`;

export function licenseByCustomerContract(factory: StoreFactory): void {
  describe(`LicenseRepository by customer on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test("a customer's licenses are listed across developers, oldest first, ties by id", async () => {
      const { store } = opened();
      const parties = await givenLicenseParties(store);
      const otherSeller = await givenSeller(store);
      const newest = aLicense(parties, { issuedAt: T0 + 2 * DAY });
      const tiedB = aLicense({ ...otherSeller, customerId: parties.customerId }, { id: `lic_b${unique()}`, issuedAt: T0 + DAY });
      const tiedA = aLicense(parties, { id: `lic_a${unique()}`, issuedAt: T0 + DAY, storedStatus: 'revoked' });
      const oldest = aLicense({ ...otherSeller, customerId: parties.customerId }, { issuedAt: T0, expiresAt: null });
      for (const license of [newest, tiedB, tiedA, oldest]) await store.licenses.create(license, newKeyHash());

      const listed = await store.licenses.listByCustomer(parties.customerId);

      expect(listed).toEqual([oldest, tiedA, tiedB, newest]);
    });

    test("another customer's licenses are not listed; a customer without any has none", async () => {
      const { store } = opened();
      const mine = await givenLicenseParties(store);
      const theirs = await givenLicenseParties(store);
      const license = aLicense(mine);
      await store.licenses.create(license, newKeyHash());
      await store.licenses.create(aLicense(theirs), newKeyHash());

      expect(await store.licenses.listByCustomer(mine.customerId)).toEqual([license]);
      expect(await store.licenses.listByCustomer('cus_unknown')).toEqual([]);
    });

    test('the list shows bindings and revocations as stored now', async () => {
      const { store } = opened();
      const parties = await givenLicenseParties(store);
      const bound = aLicense(parties);
      const revoked = aLicense(parties, { issuedAt: T0 + 1 });
      for (const license of [bound, revoked]) await store.licenses.create(license, newKeyHash());

      await bindMachine(store, bound.id, 'machine-1', T0 + 5);
      await store.licenses.update(revoked.id, { storedStatus: 'revoked' });

      expect(await store.licenses.listByCustomer(parties.customerId)).toEqual([
        { ...bound, machineFingerprint: 'machine-1' },
        { ...revoked, storedStatus: 'revoked' },
      ]);
    });

    test('listed licenses are copies', async () => {
      const { store } = opened();
      const parties = await givenLicenseParties(store);
      const license = aLicense(parties);
      await store.licenses.create(license, newKeyHash());

      (await store.licenses.listByCustomer(parties.customerId))[0]!.features.push('tampered');

      expect(await store.licenses.listByCustomer(parties.customerId)).toEqual([license]);
    });
  });
}
