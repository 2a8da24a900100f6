import { describe, expect, test } from 'bun:test';
import { T0 } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';
import { anIdentityToken, givenCustomer } from './terminal-builders.ts';

export function identityTokenRepositoryContract(factory: StoreFactory): void {
  describe(`IdentityTokenRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a token reads back by its hash, field for field', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);
      const token = anIdentityToken(customer.id);

      await store.identityTokens.create(token);

      expect(await store.identityTokens.findByHash(token.tokenHash)).toEqual(token);
      expect(await store.identityTokens.findByHash('hash_unknown')).toBeNull();
    });

    test('revoke records when, once: a second revocation keeps the first time', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);
      const token = anIdentityToken(customer.id);
      await store.identityTokens.create(token);

      await store.identityTokens.revoke(token.tokenHash, T0 + 1_000);
      await store.identityTokens.revoke(token.tokenHash, T0 + 2_000);

      expect(await store.identityTokens.findByHash(token.tokenHash)).toEqual({ ...token, revokedAt: T0 + 1_000 });
    });

    test('revoke changes only the token it names', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);
      const revoked = anIdentityToken(customer.id);
      const kept = anIdentityToken(customer.id);
      for (const token of [revoked, kept]) await store.identityTokens.create(token);

      await store.identityTokens.revoke(revoked.tokenHash, T0);
      await store.identityTokens.revoke('hash_unknown', T0);

      expect(await store.identityTokens.findByHash(kept.tokenHash)).toEqual(kept);
      expect(await store.identityTokens.findByHash('hash_unknown')).toBeNull();
    });

    test('a token hash in use, or an unknown customer, is refused', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);
      const token = anIdentityToken(customer.id);
      await store.identityTokens.create(token);
      const stranger = anIdentityToken('cus_unknown');

      await expect(store.identityTokens.create({ ...token, deviceFingerprint: 'fp_other' })).rejects.toThrow();
      await expect(store.identityTokens.create(stranger)).rejects.toThrow();

      expect(await store.identityTokens.findByHash(token.tokenHash)).toEqual(token);
      expect(await store.identityTokens.findByHash(stranger.tokenHash)).toBeNull();
    });

    test('tokens are copies: mutating what went in or came out does not change the store', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);
      const token = anIdentityToken(customer.id);
      const expected = structuredClone(token);
      await store.identityTokens.create(token);

      token.expiresAt = 0;
      (await store.identityTokens.findByHash(expected.tokenHash))!.revokedAt = T0;

      expect(await store.identityTokens.findByHash(expected.tokenHash)).toEqual(expected);
    });
  });
}
