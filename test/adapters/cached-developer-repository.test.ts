import { expect, test } from 'bun:test';
import { CachedDeveloperRepository } from '../../src/adapters/store/developers/cached-developer-repository.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { anAccount } from '../contracts/builders.ts';

test('an API-key record is served from memory until its TTL, then read again (a change elsewhere shows)', async () => {
  const store = openSqliteStore(':memory:');
  let reads = 0;
  const counting = Object.create(store.developers);
  counting.findApiKeyByHash = (hash: string) => {
    reads++;
    return store.developers.findApiKeyByHash(hash);
  };
  let now = 1_000;
  const cached = new CachedDeveloperRepository(counting, { capacity: 10, ttlMs: 5_000, now: () => now });
  const account = anAccount();
  await store.developers.createAccount(account);
  const hash = account.apiKeys[0]!.keyHash;

  expect(await cached.findApiKeyByHash(hash)).toEqual(account.apiKeys[0]!);
  now += 4_999;
  await cached.findApiKeyByHash(hash);
  expect(reads).toBe(1);
  now += 1;
  await cached.findApiKeyByHash(hash);
  expect(reads).toBe(2);
});

test('unknown digests are never cached: junk keys cannot fill memory or hide a key created later', async () => {
  const store = openSqliteStore(':memory:');
  const cached = new CachedDeveloperRepository(store.developers, { capacity: 10, ttlMs: Infinity });
  const account = anAccount();
  const hash = account.apiKeys[0]!.keyHash;

  expect(await cached.findApiKeyByHash(hash)).toBeNull();
  await store.developers.createAccount(account);
  expect(await cached.findApiKeyByHash(hash)).toEqual(account.apiKeys[0]!);
});

test('a key another instance touched within the minute is learnt as used: this instance sends the UPDATE once, not on every request', async () => {
  const store = openSqliteStore(':memory:');
  const account = anAccount();
  await store.developers.createAccount(account);
  const hash = account.apiKeys[0]!.keyHash;
  const now = 1_000_000;
  // Another instance wrote lastUsedAt a moment ago; this instance's cache still holds the old record.
  const cached = new CachedDeveloperRepository(store.developers, { capacity: 10, ttlMs: Infinity, now: () => now });
  expect((await cached.findApiKeyByHash(hash))!.lastUsedAt).toBeNull();
  expect(await store.developers.touchApiKey(hash, now - 1_000)).toBe(true);

  expect(await cached.touchApiKey(hash, now)).toBe(false);
  // The next lookup reads the other instance's time: fresh, so no UPDATE for another minute.
  expect((await cached.findApiKeyByHash(hash))!.lastUsedAt).toBe(now - 1_000);
});
