import { describe, expect, test } from 'bun:test';
import type { License } from '../../src/domain/license.ts';
import type { LicenseState } from '../../src/ports/license-repository.ts';
import { aLicense, givenLicense, givenLicenseParties, unique } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

function stateOf(license: License): LicenseState {
  const { id, developerId, storedStatus, features, expiresAt, maxMachines } = license;
  return { id, developerId, storedStatus, features, expiresAt, maxMachines, activations: [] };
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

    test('setStatus revokes, and both the license and its state say so', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store);

      await store.licenses.setStatus(license.id, 'revoked');

      expect(await store.licenses.findById(license.id)).toEqual({ ...license, storedStatus: 'revoked' });
      expect((await store.licenses.findStateByKeyHash(keyHash))!.storedStatus).toBe('revoked');
    });

    test('setStatus changes only the license it names', async () => {
      const { store } = opened();
      const { license: revoked } = await givenLicense(store);
      const { license: untouched } = await givenLicense(store);

      await store.licenses.setStatus(revoked.id, 'revoked');
      await store.licenses.setStatus('lic_unknown', 'revoked');

      expect(await store.licenses.findById(untouched.id)).toEqual(untouched);
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
