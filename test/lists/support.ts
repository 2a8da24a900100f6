import { afterEach } from 'bun:test';
import { NEW_ORDER, type Order } from '../../src/domain/order.ts';
import type { StoreFactory, TestStore } from '../contracts/stores.ts';
import { depsFor } from '../support/deps.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';

export const ids = (reply: { body: { data: { id: string }[] } }) => reply.body.data.map((x) => x.id);
export const get = (api: TestApi, key: string, path: string) => api.call('GET', path, { key });

/**
 * Call inside a describe: each call of the returned function opens a fresh store of `factory` with a
 * seller on it, disposed after the test.
 */
export function shopOn(factory: StoreFactory) {
  let opened: TestStore | undefined;
  afterEach(async () => {
    await opened?.dispose();
    opened = undefined;
  });
  return async () => {
    opened = await factory.open();
    const api = testApi({ deps: depsFor(opened.store) });
    return { api, s: await seller(api) };
  };
}

let n = 0;
/** Records a paid order of a granted license, as checkout completion would. */
export async function givenOrder(api: TestApi, license: { id: string; productId: string; customerId: string }, developerId: string, overrides: Partial<Order> = {}) {
  const id = `${++n}${Math.random().toString(36).slice(2, 8)}`;
  return api.deps.orders.record({
    id: `ord_${id}`,
    developerId,
    customerId: license.customerId,
    productId: license.productId,
    licenseId: license.id,
    source: 'checkout',
    sourceId: `cs_${id}`,
    amount: 4_900,
    currency: 'usd',
    processor: 'sandbox',
    paymentId: `pi_${id}`,
    processorReference: `cs_${id}`,
    ...NEW_ORDER,
    createdAt: api.clock.now(),
    ...overrides,
  });
}

/** Two sellers; ann buys from both, bob from the first only. */
export async function twoShops(api: TestApi = testApi()) {
  const a = await seller(api);
  const b = await seller(api);
  const annA = (await a.grant({ email: 'ann@example.com' })).license;
  api.clock.advance(1000);
  const bobA = (await a.grant({ email: 'bob@example.com' })).license;
  api.clock.advance(1000);
  const annB = (await b.grant({ email: 'ann@example.com' })).license;
  api.clock.advance(1000);
  return { api, a, b, annA, bobA, annB };
}
