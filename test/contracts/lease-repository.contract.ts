import { describe, expect, test } from 'bun:test';
import type { Store } from '../../src/ports/deps.ts';
import type { LeaseCheckout } from '../../src/ports/lease-repository.ts';
import { givenLicense, T0, unique } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

const checkout = (store: Store, licenseId: string, machineFingerprint: string, at = T0) =>
  store.leases.checkout(licenseId, { id: `lease_${unique().replace(/[^0-9A-Za-z]/g, '')}`, machineFingerprint, at, borrowHours: 0 });
const won = (outcomes: LeaseCheckout[]) => outcomes.filter((o) => o.kind === 'created').length;

/** A license whose own terms lend `maxLeases` seats of `leaseSeconds`. */
async function leasable(store: Store, maxLeases: number, leaseSeconds = 600) {
  const { license } = await givenLicense(store);
  await store.leases.setOverrides(license.developerId, license.id, { maxLeases, leaseSeconds, maxBorrowHours: null });
  return license;
}

const leaseEvents = async (store: Store, developerId: string) =>
  ((await store.outbox.listEvents(developerId, { limit: 100 }))?.data ?? []).filter((e) => e.type.startsWith('lease.')).map((e) => e.type).sort();

export function leaseRepositoryContract(factory: StoreFactory): void {
  describe(`LeaseRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('N seats raced across two connections: exactly N leases, the rest told it is full with the live count', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const license = await leasable(store, 3);

      const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => checkout(i % 2 === 0 ? store : other, license.id, `m-${i}`)));

      expect(won(outcomes)).toBe(3);
      expect(outcomes.filter((o) => o.kind === 'full')).toEqual(Array.from({ length: 9 }, () => ({ kind: 'full', live: 3, maxLeases: 3 })));
      expect(await other.leases.listLive(license.id, T0)).toHaveLength(3);
    });

    test('leases off (no terms) and an unknown license are answered, nothing written', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store);
      expect(await checkout(store, license.id, 'm')).toEqual({ kind: 'off' });
      expect(await checkout(store, 'lic_none', 'm')).toEqual({ kind: 'missing' });
      expect(await store.leases.listLive(license.id, T0)).toEqual([]);
    });

    test('an expired lease counts for nothing before any sweep; its machine checking out again replaces it (lease.expired once)', async () => {
      const { store } = opened();
      const license = await leasable(store, 1, 60);
      const first = await checkout(store, license.id, 'a', T0);
      expect(first.kind).toBe('created');
      expect((await checkout(store, license.id, 'b', T0 + 59_999)).kind).toBe('full');
      expect((await checkout(store, license.id, 'a', T0 + 60_000)).kind).toBe('created');
      expect(await leaseEvents(store, license.developerId)).toEqual(['lease.created', 'lease.created', 'lease.expired', 'lease.limit_reached', 'lease.limit_reached']);
    });

    test('a heartbeat moves only a live lease of this license, in one conditional write', async () => {
      const { store } = opened();
      const license = await leasable(store, 2, 60);
      const other = await leasable(store, 2, 60);
      const held = await checkout(store, license.id, 'a', T0);
      if (held.kind !== 'created') throw new Error(held.kind);
      expect(await store.leases.heartbeat(other.id, held.lease.id, T0 + 1, T0 + 60_001)).toEqual({ kind: 'missing' });
      expect(await store.leases.heartbeat(license.id, held.lease.id, T0 + 30_000, T0 + 90_000)).toMatchObject({ kind: 'extended', lease: { expiresAt: T0 + 90_000 } });
      expect(await store.leases.heartbeat(license.id, held.lease.id, T0 + 90_000, T0 + 150_000)).toEqual({ kind: 'expired' });
    });

    test('a borrowed lease is not released before its end (the DELETE is conditional), and is once it has ended', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store);
      await store.leases.setOverrides(license.developerId, license.id, { maxLeases: 1, leaseSeconds: 60, maxBorrowHours: 2 });
      const held = await store.leases.checkout(license.id, { id: 'lease_borrowed1', machineFingerprint: 'laptop', at: T0, borrowHours: 2 });
      if (held.kind !== 'created') throw new Error(held.kind);
      expect(await store.leases.release(license.id, held.lease.id, T0 + 1)).toEqual({ kind: 'borrowed', expiresAt: T0 + 7_200_000 });
      expect((await checkout(store, license.id, 'desktop', T0 + 1)).kind).toBe('full');
      expect(await store.leases.release(license.id, held.lease.id, T0 + 7_200_000)).toMatchObject({ kind: 'released', lease: { id: held.lease.id } });
      expect(await store.leases.release(license.id, held.lease.id, T0 + 7_200_000)).toEqual({ kind: 'missing' });
    });

    test('two sweeps at once, on two connections: each expired lease deleted once, with one lease.expired', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const license = await leasable(store, 20, 60);
      for (let i = 0; i < 10; i++) await checkout(store, license.id, `m-${i}`, T0);

      const [mine, theirs] = await Promise.all([store.leases.deleteExpired(T0 + 60_000, 100), other.leases.deleteExpired(T0 + 60_000, 100)]);

      expect(mine + theirs).toBe(10);
      expect((await leaseEvents(store, license.developerId)).filter((t) => t === 'lease.expired')).toHaveLength(10);
      expect(await store.leases.deleteExpired(T0 + 60_000, 100)).toBe(0);
    });
  });
}
