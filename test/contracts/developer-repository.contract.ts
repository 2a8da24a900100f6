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
  });
}
