import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { sqliteDeps } from '../support/deps.ts';
import { testApi } from '../support/http.ts';
import { routeTable, usesCustomer, world } from '../http/fixtures.ts';
import { documentedRoutes, expectContractReply } from './contract.ts';
import { attempts, sandboxPages, send } from './requests.ts';
import { allowedWrites, changedTables, snapshot } from './snapshot.ts';

/**
 * Property-based fuzzing of every route's input (bodies, query strings, path ids, credentials,
 * content types): whatever arrives, the answer is never a 5xx, its status is one the route documents
 * in the OpenAPI document, every refusal is the contract's JSON error, and a refused call writes
 * nothing to the store. The seed is fixed; FUZZ_SEED and FUZZ_RUNS replay or widen a run.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_606);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

const sample = await world(testApi());
const names = [...routeTable(sample), ...sandboxPages(sample)].map((r) => r.name);
const documented = await documentedRoutes(sample.api);

describe.each(names.map((name) => [name]))('%s', (name) => {
  test('arbitrary input: never a 5xx, only documented statuses, the error shape, and no write when refused', async () => {
    const { deps, store } = sqliteDeps();
    const w = await world(testApi({ deps }), { customer: usesCustomer(name) });
    const route = [...routeTable(w), ...sandboxPages(w)].find((r) => r.name === name)!;
    const doc = documented.get(name);
    if (!doc) throw new Error(`${name} is not in the OpenAPI document`);

    const property = fc.asyncProperty(attempts(route, doc.fields), async (attempt) => {
      const before = snapshot(store.sqlite);
      const { reply, sent, declaredLength } = await send(w, route, attempt);
      const after = snapshot(store.sqlite);
      try {
        expectContractReply(reply, doc.statuses, declaredLength);
        if (reply.status >= 400) expect(changedTables(before, after, allowedWrites(name, reply.body?.error?.code))).toEqual([]);
      } catch (error) {
        const answer = `${reply.status} ${typeof reply.body === 'string' ? reply.body.slice(0, 300) : JSON.stringify(reply.body)}`;
        throw new Error(`sent ${sent}\nanswered ${answer}\n${(error as Error).message}\n(replay: FUZZ_SEED=${SEED})`);
      }
    });
    await fc.assert(property, { seed: SEED, numRuns: RUNS });
  }, 60_000);
});
