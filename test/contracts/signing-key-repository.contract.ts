import { describe, expect, test } from 'bun:test';
import { aSigningKey, givenDeveloper, T0 } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

export function signingKeyRepositoryContract(factory: StoreFactory): void {
  describe(`SigningKeyRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a new account has its signing key active, found by kid', async () => {
      const { store } = opened();
      const { developer, signingKey } = await givenDeveloper(store);

      expect(await store.signingKeys.active(developer.id)).toEqual(signingKey);
      expect(await store.signingKeys.byKid(signingKey.kid)).toEqual(signingKey);
      expect(await store.signingKeys.list(developer.id)).toEqual([signingKey]);
    });

    test('an unknown kid or developer finds nothing', async () => {
      const { store } = opened();
      await givenDeveloper(store);

      expect(await store.signingKeys.byKid('kid_unknown')).toBeNull();
      expect(await store.signingKeys.active('dev_unknown')).toBeNull();
      expect(await store.signingKeys.list('dev_unknown')).toEqual([]);
    });

    test('rotating leaves exactly one active key, the new one, and keeps the old ones listable newest first', async () => {
      const { store } = opened();
      const { developer, signingKey: first } = await givenDeveloper(store);
      const second = aSigningKey(developer.id, { createdAt: T0 + 1_000 });
      const third = aSigningKey(developer.id, { createdAt: T0 + 2_000 });

      await store.signingKeys.rotate(second);
      await store.signingKeys.rotate(third);

      const listed = await store.signingKeys.list(developer.id);
      expect(listed).toEqual([third, { ...second, active: false }, { ...first, active: false }]);
      expect(listed.filter((k) => k.active)).toHaveLength(1);
      expect(await store.signingKeys.active(developer.id)).toEqual(third);
      expect(await store.signingKeys.byKid(first.kid)).toEqual({ ...first, active: false });
    });

    test('keys rotated within the same millisecond list the active one first, then the latest made', async () => {
      const { store } = opened();
      const { developer, signingKey: first } = await givenDeveloper(store);
      const second = aSigningKey(developer.id, { createdAt: first.createdAt });
      const third = aSigningKey(developer.id, { createdAt: first.createdAt });

      await store.signingKeys.rotate(second);
      await store.signingKeys.rotate(third);

      expect((await store.signingKeys.list(developer.id)).map((k) => k.kid)).toEqual([third.kid, second.kid, first.kid]);
    });

    test('concurrent rotations, also from a second connection, leave exactly one active key', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const { developer } = await givenDeveloper(store);

      await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? other : store).signingKeys.rotate(aSigningKey(developer.id, { createdAt: T0 + 1 }))),
      );

      const keys = await store.signingKeys.list(developer.id);
      expect(keys).toHaveLength(11);
      expect(keys.filter((k) => k.active)).toHaveLength(1);
      expect(await store.signingKeys.active(developer.id)).toEqual(keys[0]!);
    });

    test("rotating one developer's key leaves another developer's keys alone", async () => {
      const { store } = opened();
      const mine = await givenDeveloper(store);
      const theirs = await givenDeveloper(store);

      await store.signingKeys.rotate(aSigningKey(mine.developer.id, { createdAt: T0 + 1 }));

      expect(await store.signingKeys.active(theirs.developer.id)).toEqual(theirs.signingKey);
      expect(await store.signingKeys.list(theirs.developer.id)).toEqual([theirs.signingKey]);
      expect(await store.signingKeys.list(mine.developer.id)).toHaveLength(2);
    });

    test('a rotation with a kid already in use is refused and the active key stays', async () => {
      const { store } = opened();
      const { developer, signingKey } = await givenDeveloper(store);

      const rotation = store.signingKeys.rotate(aSigningKey(developer.id, { kid: signingKey.kid, createdAt: T0 + 1 }));

      await expect(rotation).rejects.toThrow();
      expect(await store.signingKeys.active(developer.id)).toEqual(signingKey);
      expect(await store.signingKeys.list(developer.id)).toEqual([signingKey]);
    });

    test('a rotation for an unknown developer is refused', async () => {
      const { store } = opened();

      await expect(store.signingKeys.rotate(aSigningKey('dev_unknown'))).rejects.toThrow();

      expect(await store.signingKeys.list('dev_unknown')).toEqual([]);
    });

    test('keys are copies: mutating one read does not change the store', async () => {
      const { store } = opened();
      const { developer, signingKey } = await givenDeveloper(store);

      const read = (await store.signingKeys.active(developer.id))!;
      read.active = false;
      read.publicKey = 'tampered';
      (await store.signingKeys.list(developer.id))[0]!.sealedPrivateKey = 'tampered';

      expect(await store.signingKeys.byKid(signingKey.kid)).toEqual(signingKey);
    });
  });
}
