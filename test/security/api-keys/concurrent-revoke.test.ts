import { describe, expect, test } from 'bun:test';
import { openPostgresTestStore, openSqliteTestStore, type TestStore } from '../../contracts/stores.ts';
import { createApiKey, revokeApiKey } from '../../../src/app/developers/api-keys.ts';
import { signUp } from '../../../src/app/developers/sign-up.ts';
import { DomainError } from '../../../src/domain/errors.ts';
import { depsFor } from '../../support/deps.ts';
import { testApi, type TestApi } from '../../support/http.ts';

/**
 * Issue 9, low: a developer's last active secret key cannot be revoked (nobody could make another
 * one). The rule used to be checked before the revocation, so two concurrent revokes of a
 * developer's two secret keys each saw the other key active and both went through on PostgreSQL.
 * Now the store decides in one step: always exactly one is revoked, the other answers 409.
 */

const ROUNDS = 20;

const stores: { name: string; open: () => Promise<TestStore> }[] = [
  { name: 'PostgreSQL', open: openPostgresTestStore },
  { name: 'SQLite', open: openSqliteTestStore },
];

type Key = { id: string; key: string };

const activeSecrets = async (api: TestApi, key: string) =>
  ((await api.call('GET', '/developers/api-keys', { key })).body.data as { id: string; scope: string; revokedAt: number | null }[]).filter(
    (k) => k.scope === 'secret' && k.revokedAt === null,
  );

for (const { name, open } of stores) {
  describe(`concurrent revocation of a developer’s two secret keys (${name})`, () => {
    test(`always leaves exactly one active secret key, the other request refused (${ROUNDS} rounds)`, async () => {
      const opened = await open();
      try {
        const api = testApi({ deps: depsFor(opened.store) });
        const signup = await api.call('POST', '/developers/signup', { body: { email: `dev-${crypto.randomUUID()}@example.com`, name: 'Dev' } });
        const [onlySecret] = await activeSecrets(api, signup.body.apiKey);
        let survivor: Key = { id: onlySecret!.id, key: signup.body.apiKey };
        for (let round = 0; round < ROUNDS; round++) {
          const made = await api.call('POST', '/developers/api-keys', { key: survivor.key, body: { scope: 'secret' } });
          expect(made.status).toBe(201);
          const pair: Key[] = [survivor, { id: made.body.id, key: made.body.key }];

          // Both at once, each authenticated with the key it does not revoke.
          const replies = await Promise.all(
            pair.map((target, i) => api.call('POST', `/developers/api-keys/${target.id}/revoke`, { key: pair[1 - i]!.key })),
          );

          // The loser hears 409 conflict; or 401 when its own credential was revoked by the winner
          // before it was even authenticated (which the use-case test below rules out).
          const statuses = replies.map((r) => r.status).sort();
          expect([[200, 409], [200, 401]]).toContainEqual(statuses);
          survivor = pair[replies.findIndex((r) => r.status !== 200)]!;
          expect((await activeSecrets(api, survivor.key)).map((k) => k.id)).toEqual([survivor.id]);
        }
      } finally {
        await opened.dispose();
      }
    });
  });
}

for (const { name, open } of stores) {
  test(`revokeApiKey: of two concurrent revocations of the only two secret keys, one succeeds and one is conflict (${name}, ${ROUNDS} rounds)`, async () => {
    const opened = await open();
    try {
      const deps = depsFor(opened.store);
      for (let round = 0; round < ROUNDS; round++) {
        const account = await signUp(deps, { email: `dev-${crypto.randomUUID()}@example.com`, name: 'Dev' });
        const second = await createApiKey(deps, account.id, { scope: 'secret' });
        const [first] = (await deps.developers.listApiKeys(account.id)).filter((k) => k.scope === 'secret' && k.id !== second.id);

        const outcomes = await Promise.allSettled([revokeApiKey(deps, account.id, first!.id), revokeApiKey(deps, account.id, second.id)]);

        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
        expect(refused.reason).toBeInstanceOf(DomainError);
        expect(refused.reason.code).toBe('conflict');
        const active = (await deps.developers.listApiKeys(account.id)).filter((k) => k.scope === 'secret' && k.revokedAt === null);
        expect(active).toHaveLength(1);
      }
    } finally {
      await opened.dispose();
    }
  });
}
