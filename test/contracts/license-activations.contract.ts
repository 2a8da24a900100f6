import { describe, expect, test } from 'bun:test';
import { DEACTIVATION_WINDOW_MS } from '../../src/domain/activation.ts';
import type { Store } from '../../src/ports/deps.ts';
import { DAY, givenLicense, T0, unique } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

const activate = (store: Store, licenseId: string, machineFingerprint: string, at = T0, name: string | null = null) =>
  store.licenses.activate(licenseId, { id: `act_${unique()}`, machineFingerprint, name, at });
const quota = (limit: number, now: number) => ({ limit, now, windowMs: DEACTIVATION_WINDOW_MS });
const machines = (count: number) => Array.from({ length: count }, (_, i) => `machine-${String(i).padStart(2, '0')}`);

export function licenseActivationsContract(factory: StoreFactory): void {
  describe(`LicenseRepository activations on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('N slots, 3×N concurrent first activations with distinct machines: exactly N win, and the rest are told it is full', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store, { maxMachines: 4 });

      const outcomes = await Promise.all(machines(12).map((fp, i) => activate(store, license.id, fp, T0 + i)));

      expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(4);
      expect(outcomes.filter((o) => o.kind === 'full')).toHaveLength(8);
      expect(await store.licenses.listActivations(license.id)).toHaveLength(4);
      expect((await store.licenses.findStateById(license.id))!.activations).toHaveLength(4);
    });

    test('N slots raced across two connections: still exactly N', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const { license, keyHash } = await givenLicense(store, { maxMachines: 3 });

      const outcomes = await Promise.all(machines(9).map((fp, i) => activate(i % 2 === 0 ? store : other, license.id, fp, T0 + i)));

      expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(3);
      expect(await other.licenses.listActivations(license.id)).toHaveLength(3);
      expect((await store.licenses.findStateByKeyHash(keyHash))!.activations).toHaveLength(3);
    });

    test('one machine activating many times at once takes one slot, and every call gets that activation', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store, { maxMachines: 5 });

      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => activate(store, license.id, 'same-machine', T0 + i)));

      expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(1);
      const ids = new Set(outcomes.map((o) => (o.kind === 'created' || o.kind === 'existing' ? o.activation.id : 'none')));
      expect(ids.size).toBe(1);
      expect(await store.licenses.listActivations(license.id)).toHaveLength(1);
    });

    test('activations are listed oldest first with their names; the license shows its oldest machine', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store, { maxMachines: null });
      await activate(store, license.id, 'later', T0 + 2, 'desk');
      await activate(store, license.id, 'first', T0 + 1, 'laptop');

      const list = await store.licenses.listActivations(license.id);

      expect(list.map((a) => [a.machineFingerprint, a.name, a.createdAt, a.lastSeenAt])).toEqual([['first', 'laptop', T0 + 1, T0 + 1], ['later', 'desk', T0 + 2, T0 + 2]]);
      expect((await store.licenses.findById(license.id))!.machineFingerprint).toBe('first');
    });

    test('touch moves lastSeenAt forward only', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store);
      await activate(store, license.id, 'm', T0);

      await store.licenses.touchActivation(license.id, 'm', T0 + DAY);
      await store.licenses.touchActivation(license.id, 'm', T0 + 1);

      expect((await store.licenses.listActivations(license.id))[0]!.lastSeenAt).toBe(T0 + DAY);
      expect((await store.licenses.findStateByKeyHash(keyHash))!.activations).toEqual([{ machineFingerprint: 'm', lastSeenAt: T0 + DAY }]);
    });

    test('touchActivations writes a batch of machines at once, each forward only; unknown ones are skipped', async () => {
      const { store } = opened();
      const { license: one, keyHash } = await givenLicense(store, { maxMachines: 2 });
      const { license: two } = await givenLicense(store);
      await activate(store, one.id, 'a', T0);
      await activate(store, one.id, 'b', T0 + 5);
      await activate(store, two.id, 'a', T0);

      await store.licenses.touchActivations([
        { licenseId: one.id, machineFingerprint: 'a', at: T0 + DAY },
        { licenseId: one.id, machineFingerprint: 'b', at: T0 + 1 },
        { licenseId: two.id, machineFingerprint: 'a', at: T0 + 2 * DAY },
        { licenseId: two.id, machineFingerprint: 'never-activated', at: T0 + DAY },
      ]);
      await store.licenses.touchActivations([]);

      expect((await store.licenses.listActivations(one.id)).map((a) => [a.machineFingerprint, a.lastSeenAt])).toEqual([['a', T0 + DAY], ['b', T0 + 5]]);
      expect((await store.licenses.listActivations(two.id)).map((a) => [a.machineFingerprint, a.lastSeenAt])).toEqual([['a', T0 + 2 * DAY]]);
      expect((await store.licenses.findStateByKeyHash(keyHash))!.activations).toEqual([{ machineFingerprint: 'a', lastSeenAt: T0 + DAY }, { machineFingerprint: 'b', lastSeenAt: T0 + 5 }]);
    });

    test('a lowered maxMachines keeps the machines there and admits none until enough leave', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store, { maxMachines: 3 });
      for (const fp of ['a', 'b', 'c']) await activate(store, license.id, fp);

      await store.licenses.update(license.id, { maxMachines: 1 });

      expect((await activate(store, license.id, 'a')).kind).toBe('existing');
      expect((await activate(store, license.id, 'd')).kind).toBe('full');
      await store.licenses.deactivate(license.id, { machineFingerprint: 'a' });
      await store.licenses.deactivate(license.id, { machineFingerprint: 'b' });
      expect((await activate(store, license.id, 'd')).kind).toBe('full');
      await store.licenses.deactivate(license.id, { machineFingerprint: 'c' });
      expect((await activate(store, license.id, 'd')).kind).toBe('created');
      expect((await store.licenses.findStateById(license.id))!.maxMachines).toBe(1);
    });

    test('deactivate by machine or by id; unknown ones are missing; unbind removes all', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store, { maxMachines: 3 });
      const a = await activate(store, license.id, 'a');
      await activate(store, license.id, 'b');
      await activate(store, license.id, 'c');

      expect(await store.licenses.deactivate(license.id, { machineFingerprint: 'nope' })).toEqual({ kind: 'missing' });
      expect(await store.licenses.deactivate('lic_unknown', { machineFingerprint: 'a' })).toEqual({ kind: 'missing' });
      expect((await store.licenses.deactivate(license.id, { activationId: a.kind === 'created' ? a.activation.id : '' })).kind).toBe('removed');
      expect((await store.licenses.deactivate(license.id, { machineFingerprint: 'b' })).kind).toBe('removed');
      await store.licenses.unbind(license.id);

      expect(await store.licenses.listActivations(license.id)).toEqual([]);
      expect((await store.licenses.findStateByKeyHash(keyHash))!.activations).toEqual([]);
      expect(await activate(store, 'lic_unknown', 'a')).toEqual({ kind: 'missing' });
    });

    test('the quota: K removals per rolling window, the K+1th refused with when the next is allowed', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store, { maxMachines: null });
      for (const fp of machines(5)) await activate(store, license.id, fp);

      for (let i = 0; i < 3; i++) {
        expect((await store.licenses.deactivate(license.id, { machineFingerprint: machines(5)[i]! }, quota(3, T0 + i * DAY))).kind).toBe('removed');
      }
      const refused = await store.licenses.deactivate(license.id, { machineFingerprint: 'machine-03' }, quota(3, T0 + 3 * DAY));

      expect(refused).toEqual({ kind: 'quota_exhausted', retryAt: T0 + DEACTIVATION_WINDOW_MS });
      expect(await store.licenses.listActivations(license.id)).toHaveLength(2);
      const rolled = await store.licenses.deactivate(license.id, { machineFingerprint: 'machine-03' }, quota(3, T0 + DEACTIVATION_WINDOW_MS));
      expect(rolled.kind).toBe('removed');
      // Removals without a quota (the seller's) are not counted.
      expect((await store.licenses.deactivate(license.id, { machineFingerprint: 'machine-04' })).kind).toBe('removed');
    });

    test('concurrent holder deactivations: no more than K pass', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const { license } = await givenLicense(store, { maxMachines: null });
      for (const fp of machines(10)) await activate(store, license.id, fp);

      const outcomes = await Promise.all(
        machines(10).map((fp, i) => (i % 2 === 0 ? store : other).licenses.deactivate(license.id, { machineFingerprint: fp }, quota(3, T0 + DAY))),
      );

      expect(outcomes.filter((o) => o.kind === 'removed')).toHaveLength(3);
      expect(await store.licenses.listActivations(license.id)).toHaveLength(7);
    });
  });
}
