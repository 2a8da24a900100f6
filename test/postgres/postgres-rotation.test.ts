import { describe, expect, test } from 'bun:test';
import { aSigningKey, givenDeveloper, T0 } from '../contracts/builders.ts';
import { freshStorePerTest, postgresStores } from '../contracts/stores.ts';

// READ COMMITTED alone would let two rotations from the same head both commit and fork the chain of
// endorsements: the store lets only the first rotation from a head win.
describe('PostgreSQL signing key rotation under concurrency', () => {
  const opened = freshStorePerTest(postgresStores);

  test('10 concurrent rotations from one head across two pools: one wins, one active key', async () => {
    const { store, connectAgain } = opened();
    const other = await connectAgain();
    const { developer, signingKey } = await givenDeveloper(store);
    const next = Array.from({ length: 10 }, (_, i) => aSigningKey(developer.id, { createdAt: T0 + 1 + i }));

    const won = await Promise.all(next.map((key, i) => (i % 2 ? other : store).signingKeys.rotate({ next: key, after: signingKey.kid, retired: [] })));

    expect(won.filter(Boolean)).toHaveLength(1);
    const listed = await store.signingKeys.list(developer.id);
    expect(listed).toHaveLength(2);
    expect(listed.filter((k) => k.active)).toHaveLength(1);
    expect(await store.signingKeys.active(developer.id, T0 + 100)).toEqual(listed[0]!);
  });

  test("rotations of different developers run side by side and leave each developer's own key active", async () => {
    const { store, connectAgain } = opened();
    const other = await connectAgain();
    const mine = await givenDeveloper(store);
    const theirs = await givenDeveloper(store);
    const myKey = aSigningKey(mine.developer.id, { createdAt: T0 + 1 });
    const theirKey = aSigningKey(theirs.developer.id, { createdAt: T0 + 1 });

    await Promise.all([
      store.signingKeys.rotate({ next: myKey, after: mine.signingKey.kid, retired: [] }),
      other.signingKeys.rotate({ next: theirKey, after: theirs.signingKey.kid, retired: [] }),
    ]);

    expect(await store.signingKeys.active(mine.developer.id, T0 + 1)).toEqual(myKey);
    expect(await store.signingKeys.active(theirs.developer.id, T0 + 1)).toEqual(theirKey);
  });
});
