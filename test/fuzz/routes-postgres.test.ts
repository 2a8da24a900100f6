import { afterAll, afterEach, beforeAll, describe, test } from 'bun:test';
import fc from 'fast-check';
import { depsFor } from '../support/deps.ts';
import { testApi } from '../support/http.ts';
import { openPostgresTestStore, type TestStore } from '../contracts/stores.ts';
import { routeTable, usesCustomer, world } from '../http/fixtures.ts';
import { documentedRoutes, expectContractReply } from './contract.ts';
import { attempts, sandboxPages, send } from './requests.ts';

/**
 * The same fuzz as routes.test.ts, on PostgreSQL, whose text cannot hold U+0000 and whose driver
 * reports what SQLite lets through: never a 5xx, only documented statuses, the contract's error
 * shape. Fewer runs per route (a fresh schema each) keep CI fast; FUZZ_PG_RUNS widens a run. The
 * no-write check stays with the SQLite run, which can snapshot its tables cheaply.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_606);
const RUNS = Number(process.env.FUZZ_PG_RUNS ?? 8);

const sample = await world(testApi());
const names = [...routeTable(sample), ...sandboxPages(sample)].map((r) => r.name);
const documented = await documentedRoutes(sample.api);

// One schema for the seller and holder routes (a fresh world of sellers, products and licenses per
// route inside it): opening a schema per route cost most of this file's time. The buyer's routes
// (sign-in, purchases, the account, the SMS outbox) get a schema of their own each: their worlds share
// a buyer's e-mail and phone, whose codes and limits would carry over from route to route.
let shared: TestStore;
beforeAll(async () => {
  shared = await openPostgresTestStore();
});
afterAll(() => shared.dispose());
const ownSchema = (name: string) => usesCustomer(name) || /\/(auth|purchase|customer|sandbox\/outbox)\b/.test(name);

describe.each(names.map((name) => [name]))('%s on PostgreSQL', (name) => {
  let own: TestStore | undefined;
  afterEach(async () => {
    await own?.dispose();
    own = undefined;
  });

  test('arbitrary input (NUL and other control characters included): never a 5xx, only documented statuses, the error shape', async () => {
    own = ownSchema(name) ? await openPostgresTestStore() : undefined;
    const w = await world(testApi({ deps: depsFor((own ?? shared).store) }), { customer: usesCustomer(name) });
    const route = [...routeTable(w), ...sandboxPages(w)].find((r) => r.name === name)!;
    const doc = documented.get(name);
    if (!doc) throw new Error(`${name} is not in the OpenAPI document`);

    const property = fc.asyncProperty(attempts(route, doc.fields), async (attempt) => {
      const { reply, sent, declaredLength } = await send(w, route, attempt);
      try {
        expectContractReply(reply, doc.statuses, declaredLength);
      } catch (error) {
        const answer = `${reply.status} ${typeof reply.body === 'string' ? reply.body.slice(0, 300) : JSON.stringify(reply.body)}`;
        throw new Error(`sent ${sent}\nanswered ${answer}\n${(error as Error).message}\n(replay: FUZZ_SEED=${SEED})`);
      }
    });
    await fc.assert(property, { seed: SEED, numRuns: RUNS });
  }, 60_000);
});
