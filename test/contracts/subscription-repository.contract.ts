import { describe, expect, test } from 'bun:test';
import type { Subscription } from '../../src/domain/subscription.ts';
import type { Store } from '../../src/ports/deps.ts';
import { aLicense, aProduct, DAY, givenLicenseParties, T0, unique } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

export function aSubscription(parties: { developerId: string; productId: string; customerId: string; licenseId: string }, overrides: Partial<Subscription> = {}): Subscription {
  const id = unique();
  return {
    id: `sub_${id}`,
    ...parties,
    processor: 'stripe',
    processorSubscriptionId: `sub_test_${id}`,
    status: 'active',
    interval: 'month',
    currentPeriodEnd: T0 + 31 * DAY,
    cancelAtPeriodEnd: false,
    trialEnd: null,
    createdAt: T0,
    updatedAt: T0,
    canceledAt: null,
    ...overrides,
  };
}

/** A seller, a buyer and a license; `subscribe` stores a subscription renewing a fresh license of theirs. */
async function givenShop(store: Store) {
  const parties = await givenLicenseParties(store);
  const subscribe = async (overrides: Partial<Subscription> = {}) => {
    const license = aLicense(parties);
    await store.licenses.create(license, `hash_${unique()}`);
    return store.subscriptions.create(aSubscription({ ...parties, licenseId: license.id }, overrides));
  };
  return { parties, subscribe };
}

export function subscriptionRepositoryContract(factory: StoreFactory): void {
  describe(`SubscriptionRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a subscription is found by its processor id, its license and (for its developer only) its id', async () => {
      const { store } = opened();
      const { subscribe } = await givenShop(store);
      const stored = await subscribe();

      expect(await store.subscriptions.findByProcessorId(stored.processorSubscriptionId)).toEqual(stored);
      expect(await store.subscriptions.findByLicense(stored.licenseId)).toEqual(stored);
      expect(await store.subscriptions.findById(stored.developerId, stored.id)).toEqual(stored);
      expect(await store.subscriptions.findById('dev_someoneElse', stored.id)).toBeNull();
      expect(await store.subscriptions.findByProcessorId('sub_unknown')).toBeNull();
    });

    test('a trial’s end is kept as recorded (null when none), whatever the processor says later', async () => {
      const { store } = opened();
      const { subscribe } = await givenShop(store);
      const trialing = await subscribe({ trialEnd: T0 + 14 * DAY, currentPeriodEnd: T0 + 14 * DAY });
      const plain = await subscribe();

      const charged = await store.subscriptions.update(trialing.processorSubscriptionId, { status: 'active', currentPeriodEnd: T0 + 45 * DAY, asOf: T0 + 14 * DAY });
      const canceled = await store.subscriptions.markCancelAtPeriodEnd(trialing.developerId, trialing.id, T0 + 15 * DAY);

      expect(trialing.trialEnd).toBe(T0 + 14 * DAY);
      expect(charged).toMatchObject({ trialEnd: T0 + 14 * DAY, currentPeriodEnd: T0 + 45 * DAY });
      expect(canceled?.trialEnd).toBe(T0 + 14 * DAY);
      expect(plain.trialEnd).toBeNull();
      const listed = (await store.subscriptions.listByDeveloper(trialing.developerId, { limit: 10 })).data;
      expect(Object.fromEntries(listed.map((s) => [s.id, s.trialEnd]))).toEqual({ [plain.id]: null, [trialing.id]: T0 + 14 * DAY });
      const sandbox = await subscribe({ processor: 'sandbox', trialEnd: T0 + 7 * DAY, currentPeriodEnd: T0 + 7 * DAY });
      const due = await store.subscriptions.listDueSandbox(sandbox.developerId, T0 + 7 * DAY, 10);
      expect(due.map((s) => [s.id, s.trialEnd])).toEqual([[sandbox.id, T0 + 7 * DAY]]);
    });

    test('recording the same processor subscription twice keeps the first and returns it', async () => {
      const { store } = opened();
      const { subscribe } = await givenShop(store);
      const first = await subscribe({ processorSubscriptionId: 'sub_test_same' });

      const again = await store.subscriptions.create({ ...first, id: 'sub_other', currentPeriodEnd: first.currentPeriodEnd + DAY });

      expect(again).toEqual(first);
    });

    test('10 concurrent records of one processor subscription: one row, everyone gets it', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const { parties } = await givenShop(store);
      const license = aLicense(parties);
      await store.licenses.create(license, `hash_${unique()}`);
      const candidate = (i: number) => aSubscription({ ...parties, licenseId: license.id }, { id: `sub_racer${i}`, processorSubscriptionId: 'sub_test_raced' });

      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? other : store).subscriptions.create(candidate(i))));

      expect(new Set(results.map((r) => r.id)).size).toBe(1);
      expect((await store.subscriptions.listByDeveloper(parties.developerId, { limit: 50 })).data).toHaveLength(1);
    });

    test('the period end never moves backwards', async () => {
      const { store } = opened();
      const { subscribe } = await givenShop(store);
      const sub = await subscribe({ currentPeriodEnd: T0 + 60 * DAY });

      const after = await store.subscriptions.update(sub.processorSubscriptionId, { currentPeriodEnd: T0 + 30 * DAY, asOf: T0 + DAY });
      const later = await store.subscriptions.update(sub.processorSubscriptionId, { currentPeriodEnd: T0 + 90 * DAY, asOf: T0 });

      expect(after?.currentPeriodEnd).toBe(T0 + 60 * DAY);
      expect(later?.currentPeriodEnd).toBe(T0 + 90 * DAY);
    });

    test('older news does not override newer: a late past_due after a later active stays active', async () => {
      const { store } = opened();
      const { subscribe } = await givenShop(store);
      const sub = await subscribe();

      await store.subscriptions.update(sub.processorSubscriptionId, { status: 'active', cancelAtPeriodEnd: true, asOf: T0 + 2 * DAY });
      const late = await store.subscriptions.update(sub.processorSubscriptionId, { status: 'past_due', cancelAtPeriodEnd: false, asOf: T0 + DAY });

      expect(late).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, updatedAt: T0 + 2 * DAY });
    });

    test('canceled is final, whenever it arrives, and keeps its first time', async () => {
      const { store } = opened();
      const { subscribe } = await givenShop(store);
      const sub = await subscribe();

      await store.subscriptions.update(sub.processorSubscriptionId, { status: 'active', asOf: T0 + 5 * DAY });
      const canceled = await store.subscriptions.update(sub.processorSubscriptionId, { status: 'canceled', asOf: T0 + DAY });
      const revived = await store.subscriptions.update(sub.processorSubscriptionId, { status: 'active', cancelAtPeriodEnd: false, asOf: T0 + 9 * DAY });
      const canceledAgain = await store.subscriptions.update(sub.processorSubscriptionId, { status: 'canceled', asOf: T0 + 10 * DAY });

      expect(canceled).toMatchObject({ status: 'canceled', canceledAt: T0 + DAY });
      expect(revived).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: false });
      expect(canceledAgain).toMatchObject({ status: 'canceled', canceledAt: T0 + DAY });
    });

    test('updating an unknown subscription is null', async () => {
      const { store } = opened();

      expect(await store.subscriptions.update('sub_unknown', { status: 'past_due', asOf: T0 })).toBeNull();
    });

    test('a developer lists only their own, newest first, page by page', async () => {
      const { store } = opened();
      const mine = await givenShop(store);
      const theirs = await givenShop(store);
      const a = await mine.subscribe({ createdAt: T0 });
      const b = await mine.subscribe({ createdAt: T0 + 1 });
      const c = await mine.subscribe({ createdAt: T0 + 2 });
      await theirs.subscribe({ createdAt: T0 + 3 });

      const first = await store.subscriptions.listByDeveloper(mine.parties.developerId, { limit: 2 });
      const second = await store.subscriptions.listByDeveloper(mine.parties.developerId, { limit: 2, after: { createdAt: b.createdAt, id: b.id } });

      const email = (await store.customers.findById(mine.parties.customerId))!.email;
      expect(first).toEqual({ data: [c, b].map((s) => ({ ...s, customerEmail: email })), hasMore: true });
      expect(second).toEqual({ data: [{ ...a, customerEmail: email }], hasMore: false });
    });

    test('a developer’s list filters by product and by status, and the filters combine', async () => {
      const { store } = opened();
      const mine = await givenShop(store);
      const otherProduct = aProduct(mine.parties.developerId);
      await store.products.create(otherProduct);
      const active = await mine.subscribe({ createdAt: T0 });
      const pastDue = await mine.subscribe({ createdAt: T0 + 1, status: 'past_due' });
      const elsewhere = await mine.subscribe({ createdAt: T0 + 2, productId: otherProduct.id });
      const ids = async (query: { productId?: string; status?: Subscription['status'] }) =>
        (await store.subscriptions.listByDeveloper(mine.parties.developerId, { limit: 10, ...query })).data.map((s) => s.id);

      expect(await ids({ productId: mine.parties.productId })).toEqual([pastDue.id, active.id]);
      expect(await ids({ status: 'active' })).toEqual([elsewhere.id, active.id]);
      expect(await ids({ productId: mine.parties.productId, status: 'past_due' })).toEqual([pastDue.id]);
      expect(await ids({ productId: 'prod_unknown' })).toEqual([]);
    });

    test('the seller’s cancel request sets cancelAtPeriodEnd whatever time the row holds, and keeps the later time', async () => {
      const { store } = opened();
      const { subscribe } = await givenShop(store);
      const sub = await subscribe();
      // The sandbox clock may have put the row's time ahead of the request's.
      await store.subscriptions.update(sub.processorSubscriptionId, { status: 'active', asOf: T0 + 40 * DAY });

      const marked = await store.subscriptions.markCancelAtPeriodEnd(sub.developerId, sub.id, T0 + DAY);
      const stale = await store.subscriptions.update(sub.processorSubscriptionId, { cancelAtPeriodEnd: false, asOf: T0 + 20 * DAY });

      expect(marked).toMatchObject({ id: sub.id, status: 'active', cancelAtPeriodEnd: true, updatedAt: T0 + 40 * DAY });
      expect(stale).toMatchObject({ cancelAtPeriodEnd: true });
    });

    test('after a cancel request, processor news older than it cannot undo it; newer news can', async () => {
      const { store } = opened();
      const { subscribe } = await givenShop(store);
      const sub = await subscribe();

      await store.subscriptions.markCancelAtPeriodEnd(sub.developerId, sub.id, T0 + 10 * DAY);
      const older = await store.subscriptions.update(sub.processorSubscriptionId, { cancelAtPeriodEnd: false, asOf: T0 + 5 * DAY });
      const newer = await store.subscriptions.update(sub.processorSubscriptionId, { cancelAtPeriodEnd: false, asOf: T0 + 11 * DAY });

      expect(older).toMatchObject({ cancelAtPeriodEnd: true, updatedAt: T0 + 10 * DAY });
      expect(newer).toMatchObject({ cancelAtPeriodEnd: false });
    });

    test('a cancel request leaves a canceled subscription as it is, and another developer’s is null', async () => {
      const { store } = opened();
      const { subscribe } = await givenShop(store);
      const sub = await subscribe();
      const canceled = (await store.subscriptions.update(sub.processorSubscriptionId, { status: 'canceled', asOf: T0 + DAY }))!;

      expect(await store.subscriptions.markCancelAtPeriodEnd(sub.developerId, sub.id, T0 + 2 * DAY)).toEqual(canceled);
      expect(await store.subscriptions.markCancelAtPeriodEnd('dev_someoneElse', sub.id, T0 + 2 * DAY)).toBeNull();
      expect(await store.subscriptions.markCancelAtPeriodEnd(sub.developerId, 'sub_unknown', T0 + 2 * DAY)).toBeNull();
    });

    test('20 concurrent cancel requests racing a cancellation: every caller gets a row, and canceled stays final', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const { subscribe } = await givenShop(store);
      const sub = await subscribe();

      const requests = Array.from({ length: 20 }, (_, i) => (i % 2 ? other : store).subscriptions.markCancelAtPeriodEnd(sub.developerId, sub.id, T0 + i));
      const [results] = await Promise.all([Promise.all(requests), store.subscriptions.update(sub.processorSubscriptionId, { status: 'canceled', asOf: T0 + 5 })]);

      expect(results.every((r) => r?.id === sub.id)).toBe(true);
      expect(await store.subscriptions.findById(sub.developerId, sub.id)).toMatchObject({ status: 'canceled', canceledAt: T0 + 5 });
    });

    test('the sandbox clock bills only its own developer’s sandbox subscriptions that are due and not canceled', async () => {
      const { store } = opened();
      const mine = await givenShop(store);
      const theirs = await givenShop(store);
      const due = await mine.subscribe({ processor: 'sandbox', currentPeriodEnd: T0 + 10 });
      await mine.subscribe({ processor: 'sandbox', currentPeriodEnd: T0 + 100 * DAY });
      await mine.subscribe({ processor: 'stripe', currentPeriodEnd: T0 });
      const canceled = await mine.subscribe({ processor: 'sandbox', currentPeriodEnd: T0 });
      await store.subscriptions.update(canceled.processorSubscriptionId, { status: 'canceled', asOf: T0 });
      await theirs.subscribe({ processor: 'sandbox', currentPeriodEnd: T0 });

      const listed = await store.subscriptions.listDueSandbox(mine.parties.developerId, T0 + DAY, 10);

      expect(listed.map((s) => s.id)).toEqual([due.id]);
    });
  });
}
