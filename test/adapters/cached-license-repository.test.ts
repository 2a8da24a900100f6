import { afterEach, expect, test } from 'bun:test';
import { CachedLicenseRepository } from '../../src/adapters/store/licenses/cached-license-repository.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import type { LicenseRepository } from '../../src/ports/license-repository.ts';
import { bindMachine, boundMachine, givenLicense } from '../contracts/builders.ts';

const stores: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

/** The real SQLite repository, with reads by digest held until the test lets them go. */
async function slowReadsOverSqlite() {
  const store = openSqliteStore(':memory:');
  stores.push(store);
  const held: (() => void)[] = [];
  const inner: LicenseRepository = Object.create(store.licenses);
  inner.findStateByKeyHash = async (digest) => {
    const state = await store.licenses.findStateByKeyHash(digest);
    await new Promise<void>((release) => held.push(release));
    return state;
  };
  return { store, inner, releaseReads: () => held.splice(0).forEach((release) => release()) };
}

test('a read that raced a revocation is not cached: the next validation sees revoked', async () => {
  const { store, inner, releaseReads } = await slowReadsOverSqlite();
  const { license, keyHash } = await givenLicense(store);
  const cached = new CachedLicenseRepository(inner, 100);

  const staleRead = cached.findStateByKeyHash(keyHash);
  await Bun.sleep(0);
  await cached.update(license.id, { storedStatus: 'revoked' });
  releaseReads();
  expect((await staleRead)?.storedStatus).toBe('active'); // what the store said before the revocation

  const next = cached.findStateByKeyHash(keyHash);
  await Bun.sleep(0);
  releaseReads();
  expect((await next)?.storedStatus).toBe('revoked');
});

test('writes through the cache update the cached state: bind, unbind, revoke', async () => {
  const store = openSqliteStore(':memory:');
  stores.push(store);
  const { license, keyHash } = await givenLicense(store);
  const cached = new CachedLicenseRepository(store.licenses, 100);
  expect(boundMachine(await cached.findStateByKeyHash(keyHash))).toBeNull();

  expect(await bindMachine({ licenses: cached }, license.id, 'machine-a', 1)).toBe('machine-a');
  expect(boundMachine(await cached.findStateByKeyHash(keyHash))).toBe('machine-a');
  await cached.unbind(license.id);
  expect(boundMachine(await cached.findStateByKeyHash(keyHash))).toBeNull();
  await cached.update(license.id, { storedStatus: 'revoked' });
  expect((await cached.findStateByKeyHash(keyHash))?.storedStatus).toBe('revoked');
});

test('a bind lost to another writer caches the winner, not the loser', async () => {
  const store = openSqliteStore(':memory:');
  stores.push(store);
  const { license, keyHash } = await givenLicense(store);
  const cached = new CachedLicenseRepository(store.licenses, 100);
  await cached.findStateByKeyHash(keyHash);

  const results = await Promise.all(['a', 'b', 'c'].map((fp) => bindMachine({ licenses: cached }, license.id, fp, 1)));

  expect(new Set(results).size).toBe(1);
  expect(boundMachine(await cached.findStateByKeyHash(keyHash))).toBe(results[0]!);
});
