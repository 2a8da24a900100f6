import { describe, expect, test } from 'bun:test';
import { ConflictError } from '../../src/domain/errors.ts';
import type { Store } from '../../src/ports/deps.ts';
import type { NewAccount } from '../../src/ports/developer-repository.ts';
import { anAccount, anApiKey, givenDeveloper, T0 } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

async function expectNothingOf(store: Store, account: NewAccount): Promise<void> {
  expect(await store.developers.findById(account.developer.id)).toBeNull();
  for (const key of account.apiKeys) {
    const found = await store.developers.findApiKeyByHash(key.keyHash);
    expect(found?.developerId ?? null).not.toBe(account.developer.id);
  }
  expect(await store.signingKeys.byKid(account.signingKey.kid)).toBeNull();
  expect(await store.signingKeys.list(account.developer.id)).toEqual([]);
}

export function developerRepositoryContract(factory: StoreFactory): void {
  describe(`DeveloperRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('an account reads back field for field: developer, both API keys, signing key', async () => {
      const { store } = opened();
      const account = anAccount();

      await store.developers.createAccount(account);

      expect(await store.developers.findById(account.developer.id)).toEqual(account.developer);
      for (const key of account.apiKeys) expect(await store.developers.findApiKeyByHash(key.keyHash)).toEqual(key);
      expect(await store.signingKeys.byKid(account.signingKey.kid)).toEqual(account.signingKey);
    });

    test('an API key is found by its digest, a revoked one with its revocation time', async () => {
      const { store } = opened();
      const account = anAccount();
      const revoked = anApiKey(account.developer.id, { revokedAt: T0 + 5 });
      await store.developers.createAccount({ ...account, apiKeys: [...account.apiKeys, revoked] });

      const found = await store.developers.findApiKeyByHash(revoked.keyHash);

      expect(found).toEqual(revoked);
    });

    test('an unknown developer id or API key digest finds nothing', async () => {
      const { store } = opened();
      await givenDeveloper(store);

      expect(await store.developers.findById('dev_unknown')).toBeNull();
      expect(await store.developers.findApiKeyByHash('hash_unknown')).toBeNull();
    });

    test('findByEmail: the account with that e-mail, nothing for another', async () => {
      const { store } = opened();
      const account = anAccount();
      await store.developers.createAccount(account);

      expect(await store.developers.findByEmail(account.developer.email)).toEqual(account.developer);
      expect(await store.developers.findByEmail(`other-${account.developer.email}`)).toBeNull();
    });

    test('a taken e-mail is refused with the domain error email_taken', async () => {
      const { store } = opened();
      const first = await givenDeveloper(store, { email: 'taken@example.com' });

      const second = store.developers.createAccount(anAccount({ email: 'taken@example.com' }));

      await expect(second).rejects.toBeInstanceOf(ConflictError);
      await expect(second).rejects.toMatchObject({ code: 'email_taken' });
      expect(await store.developers.findById(first.developer.id)).toEqual(first.developer);
    });

    test('a refused account leaves nothing behind: no developer, no API key, no signing key', async () => {
      const { store } = opened();
      await givenDeveloper(store, { email: 'taken@example.com' });
      const refused = anAccount({ email: 'taken@example.com' });

      await expect(store.developers.createAccount(refused)).rejects.toMatchObject({ code: 'email_taken' });

      await expectNothingOf(store, refused);
    });

    test('an account whose API key digest collides is refused whole', async () => {
      const { store } = opened();
      const first = await givenDeveloper(store);
      const colliding = anAccount();
      colliding.apiKeys[1] = { ...colliding.apiKeys[1]!, keyHash: first.apiKeys[0]!.keyHash };

      await expect(store.developers.createAccount(colliding)).rejects.toThrow();

      await expectNothingOf(store, colliding);
      expect(await store.developers.findApiKeyByHash(first.apiKeys[0]!.keyHash)).toEqual(first.apiKeys[0]!);
    });

    test('a colliding API key digest is not reported as email_taken: the e-mail is free', async () => {
      const { store } = opened();
      const first = await givenDeveloper(store);
      const colliding = anAccount();
      colliding.apiKeys[0] = { ...colliding.apiKeys[0]!, keyHash: first.apiKeys[0]!.keyHash };

      const error = await store.developers.createAccount(colliding).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(Error);
      expect((error as { code?: unknown }).code).not.toBe('email_taken');
    });

    test('records are copies: mutating what went in or came out does not change the store', async () => {
      const { store } = opened();
      const account = anAccount({ name: 'Original' });
      const expected = structuredClone(account);
      await store.developers.createAccount(account);
      account.developer.name = 'Changed after create';
      account.apiKeys[0]!.scope = 'publishable';

      const read = (await store.developers.findById(expected.developer.id))!;
      read.name = 'Changed after read';
      const key = (await store.developers.findApiKeyByHash(expected.apiKeys[0]!.keyHash))!;
      key.revokedAt = 1;

      expect(await store.developers.findById(expected.developer.id)).toEqual(expected.developer);
      expect(await store.developers.findApiKeyByHash(expected.apiKeys[0]!.keyHash)).toEqual(expected.apiKeys[0]!);
    });

    test('listApiKeys: the developer’s keys only, newest first, the same millisecond by id descending', async () => {
      const { store } = opened();
      const account = await givenDeveloper(store);
      await givenDeveloper(store);
      const older = anApiKey(account.developer.id, { createdAt: T0 - 10, revokedAt: T0 - 5 });
      const newer = anApiKey(account.developer.id, { createdAt: T0 + 10 });
      for (const key of [older, newer]) await store.developers.addApiKey(key);

      const listed = await store.developers.listApiKeys(account.developer.id);

      const sameMs = [...account.apiKeys].sort((a, b) => (a.id < b.id ? 1 : -1));
      expect(listed).toEqual([newer, ...sameMs, older]);
      expect(await store.developers.listApiKeys('dev_unknown')).toEqual([]);
    });

    test('addApiKey: the key is found by its digest at once; a taken digest is refused', async () => {
      const { store } = opened();
      const account = await givenDeveloper(store);
      const key = anApiKey(account.developer.id, { scope: 'publishable' });

      await store.developers.addApiKey(key);

      expect(await store.developers.findApiKeyByHash(key.keyHash)).toEqual(key);
      const clash = anApiKey(account.developer.id, { keyHash: key.keyHash });
      await expect(store.developers.addApiKey(clash)).rejects.toThrow();
      expect(await store.developers.listApiKeys(account.developer.id)).toHaveLength(3);
    });

    test('touchApiKey writes lastUsedAt when unset or a minute older, never sooner; the digest lookup sees it', async () => {
      const { store } = opened();
      const account = await givenDeveloper(store);
      const key = account.apiKeys[0]!;
      const lastUsed = async () => (await store.developers.findApiKeyByHash(key.keyHash))!.lastUsedAt;

      await store.developers.touchApiKey(key.keyHash, T0 + 1_000);
      expect(await lastUsed()).toBe(T0 + 1_000);
      await Promise.all([store.developers.touchApiKey(key.keyHash, T0 + 60_999), store.developers.touchApiKey(key.keyHash, T0 + 30_000)]);
      expect(await lastUsed()).toBe(T0 + 1_000);
      await store.developers.touchApiKey(key.keyHash, T0 + 61_000);
      expect(await lastUsed()).toBe(T0 + 61_000);
      expect((await store.developers.listApiKeys(account.developer.id)).find((k) => k.id === key.id)!.lastUsedAt).toBe(T0 + 61_000);
    });

    test('revokeApiKey sets revokedAt and returns the record as stored; the digest lookup sees it at once', async () => {
      const { store } = opened();
      const account = await givenDeveloper(store);
      const key = account.apiKeys[0]!;
      await store.developers.addApiKey(anApiKey(account.developer.id)); // another secret key remains
      expect((await store.developers.findApiKeyByHash(key.keyHash))?.revokedAt).toBeNull(); // cached, where there is a cache

      const revoked = await store.developers.revokeApiKey(account.developer.id, key.id, T0 + 7);

      expect(revoked).toEqual({ ...key, revokedAt: T0 + 7 });
      expect(await store.developers.findApiKeyByHash(key.keyHash)).toEqual({ ...key, revokedAt: T0 + 7 });
      expect(await store.developers.findApiKeyByHash(account.apiKeys[1]!.keyHash)).toEqual(account.apiKeys[1]!);
    });

    test('revoking a revoked key keeps the first revocation time', async () => {
      const { store } = opened();
      const account = await givenDeveloper(store);
      const key = account.apiKeys[1]!;
      await store.developers.revokeApiKey(account.developer.id, key.id, T0 + 7);

      const again = await store.developers.revokeApiKey(account.developer.id, key.id, T0 + 99);

      expect(again).toEqual({ ...key, revokedAt: T0 + 7 });
      expect(await store.developers.findApiKeyByHash(key.keyHash)).toEqual({ ...key, revokedAt: T0 + 7 });
    });

    test('the last active secret key is kept: it comes back unrevoked; a publishable key can always go', async () => {
      const { store } = opened();
      const account = await givenDeveloper(store);
      const [secret, publishable] = account.apiKeys;

      const kept = await store.developers.revokeApiKey(account.developer.id, secret!.id, T0 + 7);
      const gone = await store.developers.revokeApiKey(account.developer.id, publishable!.id, T0 + 7);

      expect(kept).toEqual(secret!);
      expect(gone).toEqual({ ...publishable!, revokedAt: T0 + 7 });
      expect(await store.developers.findApiKeyByHash(secret!.keyHash)).toEqual(secret!);
    });

    test('another developer’s active secret key does not count as this one’s other key', async () => {
      const { store } = opened();
      const mine = await givenDeveloper(store);
      await givenDeveloper(store);

      expect((await store.developers.revokeApiKey(mine.developer.id, mine.apiKeys[0]!.id, T0 + 7))!.revokedAt).toBeNull();
    });

    test('concurrent revokes of a developer’s two secret keys always leave exactly one (20 rounds)', async () => {
      const { store, connectAgain } = opened();
      const again = await connectAgain();
      for (let round = 0; round < 20; round++) {
        const account = await givenDeveloper(store);
        const second = anApiKey(account.developer.id);
        await store.developers.addApiKey(second);
        const secrets = [account.apiKeys[0]!, second];

        const results = await Promise.all(secrets.map((key, i) => (i ? again : store).developers.revokeApiKey(account.developer.id, key.id, T0 + 7)));

        expect(results.filter((r) => r!.revokedAt !== null)).toHaveLength(1);
        const active = (await store.developers.listApiKeys(account.developer.id)).filter((k) => k.scope === 'secret' && k.revokedAt === null);
        expect(active).toHaveLength(1);
      }
    });

    test('revokeApiKey of another developer’s key or an unknown id is null and changes nothing', async () => {
      const { store } = opened();
      const mine = await givenDeveloper(store);
      const other = await givenDeveloper(store);
      const key = mine.apiKeys[0]!;

      expect(await store.developers.revokeApiKey(other.developer.id, key.id, T0 + 7)).toBeNull();
      expect(await store.developers.revokeApiKey(mine.developer.id, 'key_unknown', T0 + 7)).toBeNull();

      expect(await store.developers.findApiKeyByHash(key.keyHash)).toEqual(key);
    });
  });
}
