import { describe, expect, test } from 'bun:test';
import type { License } from '../../src/domain/license.ts';
import type { LicenseState } from '../../src/ports/license-repository.ts';
import { aLicense, givenLicense, givenLicenseParties, unique } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

function stateOf(license: License): LicenseState {
  const { id, developerId, productId, storedStatus, features, expiresAt, maxMachines } = license;
  return { id, developerId, productId, storedStatus, features, expiresAt, maxMachines, activations: [] };
}

export function licenseRepositoryContract(factory: StoreFactory): void {
  describe(`LicenseRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a license reads back field for field', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store);

      expect(await store.licenses.findById(license.id)).toEqual(license);
    });

    test('a perpetual license with no features reads back with null expiresAt and an empty list', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store, { expiresAt: null, features: [] });

      const read = await store.licenses.findById(license.id);

      expect(read).toEqual(license);
      expect(read!.expiresAt).toBeNull();
      expect(read!.features).toEqual([]);
    });

    test('the validation state is found by the digest of the key and by id', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store, { features: ['a', 'b'] });

      expect(await store.licenses.findStateByKeyHash(keyHash)).toEqual(stateOf(license));
      expect(await store.licenses.findStateById(license.id)).toEqual(stateOf(license));
    });

    test('an unknown id or key digest finds nothing', async () => {
      const { store } = opened();
      await givenLicense(store);

      expect(await store.licenses.findById('lic_unknown')).toBeNull();
      expect(await store.licenses.findStateById('lic_unknown')).toBeNull();
      expect(await store.licenses.findStateByKeyHash('hash_unknown')).toBeNull();
    });

    test('an update revokes, and both the license and its state say so', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store);

      await store.licenses.update(license.id, { storedStatus: 'revoked' });

      expect(await store.licenses.findById(license.id)).toEqual({ ...license, storedStatus: 'revoked' });
      expect((await store.licenses.findStateByKeyHash(keyHash))!.storedStatus).toBe('revoked');
    });

    test('an update changes only the license it names; an unknown one is null', async () => {
      const { store } = opened();
      const { license: revoked } = await givenLicense(store);
      const { license: untouched } = await givenLicense(store);

      await store.licenses.update(revoked.id, { storedStatus: 'revoked' });
      expect(await store.licenses.update('lic_unknown', { storedStatus: 'revoked' })).toBeNull();

      expect(await store.licenses.findById(untouched.id)).toEqual(untouched);
    });

    test('an update writes only the fields its patch names, and returns the license as updated', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store, { maxMachines: 3, subscriptionId: null });

      const updated = await store.licenses.update(license.id, { maxMachines: null, storedStatus: undefined });

      expect(updated).toEqual({ ...license, maxMachines: null });
      expect(await store.licenses.findById(license.id)).toEqual(updated);
      expect(await store.licenses.update(license.id, {})).toEqual(updated);
    });

    test('with an expectation, an update applies only while the license has the expected values', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store, { maxMachines: 2 });

      expect(await store.licenses.update(license.id, { maxMachines: 5 }, { storedStatus: 'revoked' })).toBeNull();
      expect(await store.licenses.update(license.id, { maxMachines: 5 }, { maxMachines: null })).toBeNull();
      expect(await store.licenses.findById(license.id)).toEqual(license);

      const revoked = await store.licenses.update(license.id, { storedStatus: 'revoked' }, { storedStatus: 'active', maxMachines: 2 });
      expect(revoked).toEqual({ ...license, storedStatus: 'revoked' });
      expect(await store.licenses.update(license.id, { maxMachines: null }, { maxMachines: 2 })).toEqual({ ...license, storedStatus: 'revoked', maxMachines: null });
      expect(await store.licenses.update(license.id, {}, { maxMachines: null })).toEqual({ ...license, storedStatus: 'revoked', maxMachines: null });
      expect(await store.licenses.update(license.id, {}, { storedStatus: 'active' })).toBeNull();
    });

    test('of 20 concurrent updates expecting the same status, exactly one wins', async () => {
      const { store, connectAgain } = opened();
      const { license } = await givenLicense(store);
      const other = await connectAgain();

      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? other : store).licenses.update(license.id, { storedStatus: 'revoked', maxMachines: i }, { storedStatus: 'active' })),
      );

      const winners = results.filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      expect(await store.licenses.findById(license.id)).toEqual(winners[0]!);
    });

    test('a second license with a key digest in use is refused', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store);
      const { developerId, productId, customerId } = license;
      const twin = aLicense({ developerId, productId, customerId });

      await expect(store.licenses.create(twin, keyHash)).rejects.toThrow();

      expect(await store.licenses.findById(twin.id)).toBeNull();
      expect(await store.licenses.findStateByKeyHash(keyHash)).toEqual(stateOf(license));
    });

    test('a license pointing at an unknown product or customer is refused', async () => {
      const { store } = opened();
      const parties = await givenLicenseParties(store);
      const noProduct = aLicense({ ...parties, productId: 'prod_unknown' });
      const noCustomer = aLicense({ ...parties, customerId: 'cus_unknown' });

      await expect(store.licenses.create(noProduct, `hash_${unique()}`)).rejects.toThrow();
      await expect(store.licenses.create(noCustomer, `hash_${unique()}`)).rejects.toThrow();

      expect(await store.licenses.findById(noProduct.id)).toBeNull();
      expect(await store.licenses.findById(noCustomer.id)).toBeNull();
    });

    test('licenses are copies: mutating what went in or came out does not change the store', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store);
      const expected = structuredClone(license);
      license.features.push('added after create');

      (await store.licenses.findById(expected.id))!.features.push('added after read');
      (await store.licenses.findStateByKeyHash(keyHash))!.features.push('added to state');
      const state = (await store.licenses.findStateById(expected.id))!;
      state.activations.push({ machineFingerprint: 'tampered', lastSeenAt: 0 });

      expect(await store.licenses.findById(expected.id)).toEqual(expected);
      expect(await store.licenses.findStateById(expected.id)).toEqual(stateOf(expected));
    });
  });
}
