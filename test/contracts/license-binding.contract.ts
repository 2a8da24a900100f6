import { describe, expect, test } from 'bun:test';
import { bindMachine, boundMachine, givenLicense, T0 } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

const fingerprints = (count: number) => Array.from({ length: count }, (_, i) => `machine-${i.toString().padStart(2, '0')}`);

export function licenseBindingContract(factory: StoreFactory): void {
  describe(`LicenseRepository machine binding on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('the first bind wins and is stored', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store);

      const bound = await bindMachine(store, license.id, 'machine-a', T0 + 1);

      expect(bound).toBe('machine-a');
      expect(boundMachine(await store.licenses.findStateByKeyHash(keyHash))).toBe('machine-a');
      expect((await store.licenses.findById(license.id))!.machineFingerprint).toBe('machine-a');
    });

    test("a second fingerprint gets the winner's fingerprint back and changes nothing", async () => {
      const { store } = opened();
      const { license } = await givenLicense(store);
      await bindMachine(store, license.id, 'machine-a', T0 + 1);

      const second = await bindMachine(store, license.id, 'machine-b', T0 + 2);

      expect(second).toBe('machine-a');
      expect(boundMachine(await store.licenses.findStateById(license.id))).toBe('machine-a');
    });

    test('the bound machine binding again gets its own fingerprint', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store);
      await bindMachine(store, license.id, 'machine-a', T0 + 1);

      expect(await bindMachine(store, license.id, 'machine-a', T0 + 2)).toBe('machine-a');
    });

    test('after unbind the next fingerprint binds', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store);
      await bindMachine(store, license.id, 'machine-a', T0 + 1);

      await store.licenses.unbind(license.id);
      const unbound = await store.licenses.findStateById(license.id);
      const rebound = await bindMachine(store, license.id, 'machine-b', T0 + 2);

      expect(boundMachine(unbound)).toBeNull();
      expect(rebound).toBe('machine-b');
      expect((await store.licenses.findById(license.id))!.machineFingerprint).toBe('machine-b');
    });

    test('binding one license leaves the others unbound', async () => {
      const { store } = opened();
      const { license: bound } = await givenLicense(store);
      const { license: other } = await givenLicense(store);

      await bindMachine(store, bound.id, 'machine-a', T0 + 1);

      expect(await store.licenses.findById(other.id)).toEqual(other);
    });

    test('binding or unbinding an unknown license binds nothing', async () => {
      const { store } = opened();

      expect(await bindMachine(store, 'lic_unknown', 'machine-a', T0)).toBeNull();
      await store.licenses.unbind('lic_unknown');
      expect(await store.licenses.findStateById('lic_unknown')).toBeNull();
    });

    test('24 concurrent binds with different fingerprints: one winner, whom every caller is told', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store);
      const candidates = fingerprints(24);

      const results = await Promise.all(candidates.map((fp, i) => bindMachine(store, license.id, fp, T0 + i)));

      const winner = results[0]!;
      expect(candidates).toContain(winner);
      expect(results).toEqual(candidates.map(() => winner));
      expect(boundMachine(await store.licenses.findStateById(license.id))).toBe(winner);
    });

    test('24 concurrent binds raced across two connections: still one winner', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const { license } = await givenLicense(store);
      const candidates = fingerprints(24);

      const results = await Promise.all(
        candidates.map((fp, i) => bindMachine(i % 2 === 0 ? store : other, license.id, fp, T0 + i)),
      );

      const winner = results[0]!;
      expect(candidates).toContain(winner);
      expect(results).toEqual(candidates.map(() => winner));
      expect(boundMachine(await store.licenses.findStateById(license.id))).toBe(winner);
      expect(boundMachine(await other.licenses.findStateById(license.id))).toBe(winner);
    });
  });
}
