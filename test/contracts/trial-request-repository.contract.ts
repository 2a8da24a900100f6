import { describe, expect, test } from 'bun:test';
import type { TrialRequest } from '../../src/domain/trial.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

const T0 = 1_800_000_000_000;
let n = 0;
const aRequest = (over: Partial<TrialRequest> = {}): TrialRequest => ({
  id: `trq_${++n}_${Math.random().toString(36).slice(2, 8)}`,
  developerId: 'dev_1',
  productId: 'prod_1',
  email: 'ada@example.com',
  machineFingerprint: 'machine-a',
  name: null,
  createdAt: T0,
  expiresAt: T0 + 300_000,
  confirmedAt: null,
  ...over,
});

/** Trial requests: kept as asked, confirmed at most once and only while live. */
export function trialRequestContract(factory: StoreFactory) {
  describe(`trial requests (${factory.name})`, () => {
    const current = freshStorePerTest(factory);

    test('a request reads back as it was written; an unknown id is null', async () => {
      const { store } = current();
      const request = aRequest({ name: 'ada-laptop' });
      await store.trialRequests.create(request);

      expect(await store.trialRequests.findById(request.id)).toEqual(request);
      expect(await store.trialRequests.findById('trq_unknown')).toBeNull();
    });

    test('confirming sets confirmedAt once: a second confirmation gets null', async () => {
      const { store } = current();
      const request = aRequest();
      await store.trialRequests.create(request);

      expect(await store.trialRequests.confirm(request.id, T0 + 1_000)).toEqual({ ...request, confirmedAt: T0 + 1_000 });
      expect(await store.trialRequests.confirm(request.id, T0 + 2_000)).toBeNull();
      expect((await store.trialRequests.findById(request.id))!.confirmedAt).toBe(T0 + 1_000);
    });

    test('an expired request is not confirmed: from its expiry on', async () => {
      const { store } = current();
      const request = aRequest();
      await store.trialRequests.create(request);

      expect(await store.trialRequests.confirm(request.id, request.expiresAt)).toBeNull();
      expect((await store.trialRequests.findById(request.id))!.confirmedAt).toBeNull();
      expect(await store.trialRequests.confirm('trq_unknown', T0)).toBeNull();
    });

    test('50 concurrent confirmations over two connections: exactly one wins', async () => {
      const opened = current();
      const other = await opened.connectAgain();
      const request = aRequest();
      await opened.store.trialRequests.create(request);

      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 ? other : opened.store).trialRequests.confirm(request.id, T0 + i)),
      );

      expect(outcomes.filter((o) => o !== null)).toHaveLength(1);
    });
  });
}
