import { describe, expect, test } from 'bun:test';
import { aSigningKey, givenDeveloper, T0 } from '../contracts/builders.ts';
import { freshStorePerTest, postgresStores } from '../contracts/stores.ts';

// READ COMMITTED alone would let two rotations each deactivate only the keys they saw and leave two
// active keys: the store must serialize rotations of one developer.
describe('PostgreSQL signing key rotation under concurrency', () => {
  const opened = freshStorePerTest(postgresStores);

  test('10 concurrent rotations across two pools leave exactly one active key, and keep every key', async () => {
    const { store, connectAgain } = opened();
    const other = await connectAgain();
    const { developer } = await givenDeveloper(store);
    const next = Array.from({ length: 10 }, (_, i) => aSigningKey(developer.id, { createdAt: T0 + 1 + i }));

    await Promise.all(next.map((key, i) => (i % 2 ? other : store).signingKeys.rotate(key)));

    const listed = await store.signingKeys.list(developer.id);
    expect(listed).toHaveLength(11);
    expect(listed.filter((k) => k.active)).toHaveLength(1);
    expect(await store.signingKeys.active(developer.id)).toEqual(listed[0]!);
  });

  test("rotations of different developers run side by side and leave each developer's own key active", async () => {
    const { store, connectAgain } = opened();
    const other = await connectAgain();
    const mine = await givenDeveloper(store);
    const theirs = await givenDeveloper(store);
    const myKey = aSigningKey(mine.developer.id, { createdAt: T0 + 1 });
    const theirKey = aSigningKey(theirs.developer.id, { createdAt: T0 + 1 });

    await Promise.all([store.signingKeys.rotate(myKey), other.signingKeys.rotate(theirKey)]);

    expect(await store.signingKeys.active(mine.developer.id)).toEqual(myKey);
    expect(await store.signingKeys.active(theirs.developer.id)).toEqual(theirKey);
  });
});
