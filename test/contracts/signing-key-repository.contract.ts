import { describe, expect, test } from 'bun:test';
import type { SigningKey } from '../../src/domain/developer.ts';
import { aSigningKey, givenDeveloper, T0 } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

const LATER = T0 + 10 ** 9;

function after(head: SigningKey, next: SigningKey, retired: { kid: string; compromisedAt: number; retirement: string }[] = []) {
  return { next, after: head.kid, retired };
}

export function signingKeyRepositoryContract(factory: StoreFactory): void {
  describe(`SigningKeyRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a new account has its signing key active, found by kid', async () => {
      const { store } = opened();
      const { developer, signingKey } = await givenDeveloper(store);

      expect(await store.signingKeys.active(developer.id, LATER)).toEqual(signingKey);
      expect(await store.signingKeys.byKid(signingKey.kid)).toEqual(signingKey);
      expect(await store.signingKeys.list(developer.id)).toEqual([signingKey]);
    });

    test('an unknown kid or developer finds nothing', async () => {
      const { store } = opened();
      await givenDeveloper(store);

      expect(await store.signingKeys.byKid('kid_unknown')).toBeNull();
      expect(await store.signingKeys.active('dev_unknown', LATER)).toBeNull();
      expect(await store.signingKeys.list('dev_unknown')).toEqual([]);
    });

    test('rotating leaves exactly one active key, the new one, and keeps the old ones listable newest first', async () => {
      const { store } = opened();
      const { developer, signingKey: first } = await givenDeveloper(store);
      const second = aSigningKey(developer.id, { createdAt: T0 + 1_000 });
      const third = aSigningKey(developer.id, { createdAt: T0 + 2_000 });

      expect(await store.signingKeys.rotate(after(first, second))).toBe(true);
      expect(await store.signingKeys.rotate(after(second, third))).toBe(true);

      const listed = await store.signingKeys.list(developer.id);
      expect(listed).toEqual([third, { ...second, active: false }, { ...first, active: false }]);
      expect(listed.filter((k) => k.active)).toHaveLength(1);
      expect(await store.signingKeys.active(developer.id, LATER)).toEqual(third);
      expect(await store.signingKeys.byKid(first.kid)).toEqual({ ...first, active: false });
    });

    test('keys rotated within the same millisecond list the active one first, then the latest made', async () => {
      const { store } = opened();
      const { developer, signingKey: first } = await givenDeveloper(store);
      const second = aSigningKey(developer.id, { createdAt: first.createdAt });
      const third = aSigningKey(developer.id, { createdAt: first.createdAt });

      await store.signingKeys.rotate(after(first, second));
      await store.signingKeys.rotate(after(second, third));

      expect((await store.signingKeys.list(developer.id)).map((k) => k.kid)).toEqual([third.kid, second.kid, first.kid]);
    });

    test('concurrent rotations from one head, also from a second connection: exactly one wins, one active key', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const { developer, signingKey: first } = await givenDeveloper(store);

      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? other : store).signingKeys.rotate(after(first, aSigningKey(developer.id, { createdAt: T0 + 1 })))),
      );

      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const keys = await store.signingKeys.list(developer.id);
      expect(keys).toHaveLength(2);
      expect(keys.filter((k) => k.active)).toHaveLength(1);
      expect(await store.signingKeys.active(developer.id, LATER)).toEqual(keys[0]!);
    });

    test('a rotation planned from a key that is no longer the head writes nothing', async () => {
      const { store } = opened();
      const { developer, signingKey: first } = await givenDeveloper(store);
      const second = aSigningKey(developer.id, { createdAt: T0 + 1 });
      await store.signingKeys.rotate(after(first, second));

      const stale = await store.signingKeys.rotate(after(first, aSigningKey(developer.id, { createdAt: T0 + 2 }), [{ kid: second.kid, compromisedAt: T0 + 2, retirement: 'r' }]));

      expect(stale).toBe(false);
      expect(await store.signingKeys.list(developer.id)).toEqual([second, { ...first, active: false }]);
    });

    test('a staged key signs only from its notBefore; until then the key before it does', async () => {
      const { store } = opened();
      const { developer, signingKey: first } = await givenDeveloper(store);
      const staged = aSigningKey(developer.id, { createdAt: T0 + 1, notBefore: T0 + 1_000, endorsement: 'e' });

      await store.signingKeys.rotate(after(first, staged));

      expect((await store.signingKeys.active(developer.id, T0 + 999))?.kid).toBe(first.kid);
      expect(await store.signingKeys.active(developer.id, T0 + 1_000)).toEqual(staged);
      expect(await store.signingKeys.byKid(staged.kid)).toEqual(staged);
    });

    test('a rotation marks the keys it retires compromised, and a compromised key never signs again', async () => {
      const { store } = opened();
      const { developer, signingKey: first } = await givenDeveloper(store);
      const successor = aSigningKey(developer.id, { createdAt: T0 + 5 });

      await store.signingKeys.rotate(after(first, successor, [{ kid: first.kid, compromisedAt: T0 + 5, retirement: 'statement' }]));

      expect(await store.signingKeys.byKid(first.kid)).toEqual({ ...first, active: false, compromisedAt: T0 + 5, retirement: 'statement' });
      expect(await store.signingKeys.active(developer.id, LATER)).toEqual(successor);
      // A clock behind the rotation's still gets the successor, never the compromised key.
      expect(await store.signingKeys.active(developer.id, T0 + 1)).toEqual(successor);
    });

    test("rotating one developer's key leaves another developer's keys alone", async () => {
      const { store } = opened();
      const mine = await givenDeveloper(store);
      const theirs = await givenDeveloper(store);

      await store.signingKeys.rotate(after(mine.signingKey, aSigningKey(mine.developer.id, { createdAt: T0 + 1 })));

      expect(await store.signingKeys.active(theirs.developer.id, LATER)).toEqual(theirs.signingKey);
      expect(await store.signingKeys.list(theirs.developer.id)).toEqual([theirs.signingKey]);
      expect(await store.signingKeys.list(mine.developer.id)).toHaveLength(2);
    });

    test('a rotation with a kid already in use is refused and the active key stays', async () => {
      const { store } = opened();
      const { developer, signingKey } = await givenDeveloper(store);

      const rotation = store.signingKeys.rotate(after(signingKey, aSigningKey(developer.id, { kid: signingKey.kid, createdAt: T0 + 1 })));

      await expect(rotation).rejects.toThrow();
      expect(await store.signingKeys.active(developer.id, LATER)).toEqual(signingKey);
      expect(await store.signingKeys.list(developer.id)).toEqual([signingKey]);
    });

    test('a rotation for an unknown developer is refused', async () => {
      const { store } = opened();

      expect(await store.signingKeys.rotate({ next: aSigningKey('dev_unknown'), after: 'kid_unknown', retired: [] })).toBe(false);

      expect(await store.signingKeys.list('dev_unknown')).toEqual([]);
    });

    test('keys are copies: mutating one read does not change the store', async () => {
      const { store } = opened();
      const { developer, signingKey } = await givenDeveloper(store);

      const read = (await store.signingKeys.active(developer.id, LATER))!;
      read.active = false;
      read.publicKey = 'tampered';
      (await store.signingKeys.list(developer.id))[0]!.sealedPrivateKey = 'tampered';

      expect(await store.signingKeys.byKid(signingKey.kid)).toEqual(signingKey);
    });
  });
}
