import { describe, expect, test } from 'bun:test';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { LastSeenBatch } from '../../src/adapters/system/last-seen-batch.ts';
import { jsonLogger } from '../../src/adapters/system/logger.ts';
import type { LicenseRepository, SeenMachine } from '../../src/ports/license-repository.ts';
import { DAY, givenLicense, T0 } from '../contracts/builders.ts';

const quiet = jsonLogger('error');

async function licensedStore(machines: string[]) {
  const store = openSqliteStore(':memory:');
  const { license } = await givenLicense(store, { maxMachines: null });
  for (const [i, fp] of machines.entries()) await store.licenses.activate(license.id, { id: `act_${i}`, machineFingerprint: fp, name: null, at: T0 });
  const seenAt = async () => Object.fromEntries((await store.licenses.listActivations(license.id)).map((a) => [a.machineFingerprint, a.lastSeenAt]));
  return { store, license, seenAt };
}

/** The store's batch write, counting the batches it is handed. */
function counted(licenses: LicenseRepository) {
  const batches: SeenMachine[][] = [];
  return { batches, touchActivations: async (seen: readonly SeenMachine[]) => (batches.push([...seen]), licenses.touchActivations(seen)) };
}

describe('LastSeenBatch: lastSeenAt written behind the answers', () => {
  test('sightings wait in memory, then one write records the latest time of each machine', async () => {
    const { store, license, seenAt } = await licensedStore(['a', 'b']);
    const writes = counted(store.licenses);
    const batch = new LastSeenBatch(writes, quiet, { everyMs: 30 });

    batch.seen({ licenseId: license.id, machineFingerprint: 'a', at: T0 + DAY });
    batch.seen({ licenseId: license.id, machineFingerprint: 'a', at: T0 + 1 });
    batch.seen({ licenseId: license.id, machineFingerprint: 'b', at: T0 + 2 * DAY });
    expect(await seenAt()).toEqual({ a: T0, b: T0 });
    expect(batch.size).toBe(2);

    await Bun.sleep(80);
    expect(await seenAt()).toEqual({ a: T0 + DAY, b: T0 + 2 * DAY });
    expect(writes.batches).toHaveLength(1);
    expect(batch.size).toBe(0);
    await batch.stop();
  });

  test('stop() writes what is left at once (a graceful shutdown loses nothing)', async () => {
    const { store, license, seenAt } = await licensedStore(['a']);
    const batch = new LastSeenBatch(store.licenses, quiet, { everyMs: 60_000 });
    batch.seen({ licenseId: license.id, machineFingerprint: 'a', at: T0 + DAY });

    await batch.stop();

    expect(await seenAt()).toEqual({ a: T0 + DAY });
  });

  test('a full batch is written without waiting for the timer', async () => {
    const { store, license, seenAt } = await licensedStore(['a', 'b', 'c']);
    const writes = counted(store.licenses);
    const batch = new LastSeenBatch(writes, quiet, { everyMs: 60_000, maxPending: 3 });
    for (const fp of ['a', 'b', 'c']) batch.seen({ licenseId: license.id, machineFingerprint: fp, at: T0 + DAY });
    await batch.flush(); // waits for the write the third sighting started

    expect(writes.batches.map((b) => b.length)).toEqual([3]);
    expect(await seenAt()).toEqual({ a: T0 + DAY, b: T0 + DAY, c: T0 + DAY });
    await batch.stop();
  });

  test('a failed write is kept and written by the next one', async () => {
    const { store, license, seenAt } = await licensedStore(['a']);
    let fail = true;
    const flaky = { touchActivations: async (seen: readonly SeenMachine[]) => (fail ? Promise.reject(new Error('disk full')) : store.licenses.touchActivations(seen)) };
    const batch = new LastSeenBatch(flaky, quiet, { everyMs: 60_000 });
    batch.seen({ licenseId: license.id, machineFingerprint: 'a', at: T0 + DAY });

    await batch.flush();
    expect(batch.size).toBe(1);
    expect(await seenAt()).toEqual({ a: T0 });
    fail = false;
    await batch.stop();
    expect(await seenAt()).toEqual({ a: T0 + DAY });
  });
});
