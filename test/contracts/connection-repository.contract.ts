import { describe, expect, test } from 'bun:test';
import { aConnectState } from './checkout-builders.ts';
import { givenDeveloper, T0 } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

export function connectionRepositoryContract(factory: StoreFactory): void {
  describe(`ConnectionRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a saved state is used once: it comes back marked used', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const state = aConnectState(developer.id);
      await store.connections.saveState(state);

      const used = await store.connections.useState(state.stateHash, T0 + 1_000);

      expect(used).toEqual({ ...state, usedAt: T0 + 1_000 });
    });

    test('a used state cannot be used again, and an unknown one not at all', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const state = aConnectState(developer.id);
      await store.connections.saveState(state);
      await store.connections.useState(state.stateHash, T0 + 1_000);

      expect(await store.connections.useState(state.stateHash, T0 + 2_000)).toBeNull();
      expect(await store.connections.useState('state_unknown', T0 + 2_000)).toBeNull();
    });

    test('10 concurrent uses of one state: exactly one gets it', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const state = aConnectState(developer.id);
      await store.connections.saveState(state);

      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.connections.useState(state.stateHash, T0 + i)));

      const winners = results.filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      expect(winners[0]!.developerId).toBe(developer.id);
    });

    test('10 concurrent uses across two connections: still exactly one', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const { developer } = await givenDeveloper(store);
      const state = aConnectState(developer.id);
      await store.connections.saveState(state);

      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? store : other).connections.useState(state.stateHash, T0 + i)),
      );

      expect(results.filter((r) => r !== null)).toHaveLength(1);
    });

    test('a state for an unknown developer, or a state hash in use, is refused', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const state = aConnectState(developer.id);
      await store.connections.saveState(state);

      await expect(store.connections.saveState(aConnectState('dev_unknown'))).rejects.toThrow();
      await expect(store.connections.saveState({ ...state, expiresAt: T0 })).rejects.toThrow();
    });

    test('an account is saved per developer; connecting again replaces it', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      await store.connections.saveAccount({ developerId: developer.id, accountId: 'acct_first', connectedAt: T0 });

      await store.connections.saveAccount({ developerId: developer.id, accountId: 'acct_second', connectedAt: T0 + 1 });

      expect(await store.connections.accountOf(developer.id)).toEqual({ developerId: developer.id, accountId: 'acct_second', connectedAt: T0 + 1 });
    });

    test('a developer who never connected has no account', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);

      expect(await store.connections.accountOf(developer.id)).toBeNull();
      expect(await store.connections.accountOf('dev_unknown')).toBeNull();
    });

    test('an account for an unknown developer is refused', async () => {
      const { store } = opened();

      await expect(store.connections.saveAccount({ developerId: 'dev_unknown', accountId: 'acct_x', connectedAt: T0 })).rejects.toThrow();

      expect(await store.connections.accountOf('dev_unknown')).toBeNull();
    });

    test('removing an account disconnects every developer on it and no one else', async () => {
      const { store } = opened();
      const [a, b, c] = [await givenDeveloper(store), await givenDeveloper(store), await givenDeveloper(store)].map((x) => x.developer.id);
      await store.connections.saveAccount({ developerId: a!, accountId: 'acct_shared', connectedAt: T0 });
      await store.connections.saveAccount({ developerId: b!, accountId: 'acct_shared', connectedAt: T0 });
      await store.connections.saveAccount({ developerId: c!, accountId: 'acct_other', connectedAt: T0 });

      await store.connections.removeAccount('acct_shared');
      await store.connections.removeAccount('acct_unknown');

      expect(await store.connections.accountOf(a!)).toBeNull();
      expect(await store.connections.accountOf(b!)).toBeNull();
      expect(await store.connections.accountOf(c!)).toEqual({ developerId: c!, accountId: 'acct_other', connectedAt: T0 });
    });
  });
}
