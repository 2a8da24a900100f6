import { describe, expect, test } from 'bun:test';
import type { Subscription } from '../../src/domain/subscription.ts';
import type { Store } from '../../src/ports/deps.ts';
import { aLicense, DAY, givenLicenseParties, T0, unique } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';
import { aSubscription } from './subscription-repository.contract.ts';

/** A seller and buyer; `written` says which events an action wrote (type and what it is about). */
async function givenShop(store: Store) {
  const parties = await givenLicenseParties(store);
  const seen = new Set<string>();
  const written = async (action: () => Promise<unknown>) => {
    await action();
    const fresh = (await store.outbox.listEvents(parties.developerId, { limit: 100 }))!.data.filter((e) => !seen.has(e.id));
    for (const e of fresh) seen.add(e.id);
    return fresh.reverse().map((e) => ({ type: e.type, data: e.data as any }));
  };
  const types = async (action: () => Promise<unknown>) => (await written(action)).map((e) => e.type);
  /** A license of theirs, its license.created seen. */
  const license = async (overrides = {}) => {
    const l = aLicense(parties, overrides);
    await written(() => store.licenses.create(l, `hash_${unique()}`));
    return l;
  };
  /** A subscription renewing a fresh license, its creation's events seen. */
  const subscribe = async (overrides: Partial<Subscription> = {}) => {
    const l = await license();
    const created = store.subscriptions.create(aSubscription({ ...parties, licenseId: l.id }, overrides));
    await written(() => created);
    return created;
  };
  return { parties, written, types, license, subscribe };
}

export function subscriptionEventsContract(factory: StoreFactory): void {
  describe(`Subscription and trial events on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a subscription recorded writes subscription.created once, with its customer e-mail; a second record of it nothing', async () => {
      const { store } = opened();
      const { parties, written, license } = await givenShop(store);
      const l = await license();
      const sub = aSubscription({ ...parties, licenseId: l.id });

      const events = await written(() => store.subscriptions.create(sub));
      const again = await written(() => store.subscriptions.create({ ...sub, id: `sub_${unique()}` }));

      expect(events).toEqual([{ type: 'subscription.created', data: { subscription: expect.objectContaining({ id: sub.id, licenseId: l.id, customerId: parties.customerId, customerEmail: expect.stringContaining('@'), status: 'active', cancelAtPeriodEnd: false }) } }]);
      expect(again).toEqual([]);
      const listed = (await store.outbox.listEvents(parties.developerId, { limit: 10, licenseId: l.id }))!.data.map((e) => e.type);
      expect(listed).toContain('subscription.created');
    });

    test('a payment mismatch writes subscription.payment_mismatch with the invoice and the price, and changes nothing', async () => {
      const { store } = opened();
      const { written, subscribe } = await givenShop(store);
      const sub = await subscribe();
      const mismatch = { invoiceId: 'in_off', amount: 500, currency: 'usd', expectedAmount: 900, expectedCurrency: 'usd' };

      const events = await written(() => store.subscriptions.reportPaymentMismatch(sub, mismatch));

      expect(events).toEqual([{ type: 'subscription.payment_mismatch', data: { subscription: expect.objectContaining({ id: sub.id, licenseId: sub.licenseId }), invoice: mismatch } }]);
      expect(await store.subscriptions.findByProcessorId(sub.processorSubscriptionId)).toEqual(sub);
    });

    test('a renewal writes subscription.renewed once: the same processor event applied again, or older news, writes nothing', async () => {
      const { store } = opened();
      const { types, subscribe } = await givenShop(store);
      const sub = await subscribe();
      const renewal = { status: 'active' as const, currentPeriodEnd: sub.currentPeriodEnd + 30 * DAY, asOf: T0 + 31 * DAY };

      expect(await types(() => store.subscriptions.update(sub.processorSubscriptionId, renewal))).toEqual(['subscription.renewed']);
      expect(await types(() => store.subscriptions.update(sub.processorSubscriptionId, renewal))).toEqual([]);
      expect(await types(() => store.subscriptions.update(sub.processorSubscriptionId, { ...renewal, currentPeriodEnd: sub.currentPeriodEnd, asOf: T0 }))).toEqual([]);
      expect(await types(() => store.subscriptions.update('sub_unknown', renewal))).toEqual([]);
    });

    test('past_due once; paid again, subscription.renewed; canceled once, and nothing after', async () => {
      const { store } = opened();
      const { types, subscribe } = await givenShop(store);
      const sub = await subscribe();
      const id = sub.processorSubscriptionId;

      expect(await types(() => store.subscriptions.update(id, { status: 'past_due', asOf: T0 + DAY }))).toEqual(['subscription.past_due']);
      expect(await types(() => store.subscriptions.update(id, { status: 'past_due', asOf: T0 + DAY }))).toEqual([]);
      expect(await types(() => store.subscriptions.update(id, { status: 'active', asOf: T0 + 2 * DAY }))).toEqual(['subscription.renewed']);
      expect(await types(() => store.subscriptions.update(id, { status: 'canceled', asOf: T0 + 3 * DAY }))).toEqual(['subscription.canceled']);
      expect(await types(() => store.subscriptions.update(id, { status: 'canceled', asOf: T0 + 4 * DAY }))).toEqual([]);
      expect(await types(() => store.subscriptions.update(id, { status: 'active', cancelAtPeriodEnd: false, currentPeriodEnd: sub.currentPeriodEnd + 60 * DAY, asOf: T0 + 5 * DAY }))).toEqual([]);
    });

    test('cancel at period end writes nothing; taken back before the end, subscription.resumed once', async () => {
      const { store } = opened();
      const { types, written, subscribe } = await givenShop(store);
      const sub = await subscribe();

      expect(await types(() => store.subscriptions.markCancelAtPeriodEnd(sub.developerId, sub.id, T0 + DAY))).toEqual([]);
      const resumed = await written(() => store.subscriptions.update(sub.processorSubscriptionId, { cancelAtPeriodEnd: false, asOf: T0 + 2 * DAY }));
      expect(resumed).toEqual([{ type: 'subscription.resumed', data: { subscription: expect.objectContaining({ id: sub.id, cancelAtPeriodEnd: false, status: 'active' }) } }]);
      expect(await types(() => store.subscriptions.update(sub.processorSubscriptionId, { cancelAtPeriodEnd: false, asOf: T0 + 3 * DAY }))).toEqual([]);
    });

    test('of 20 concurrent applications of one renewal, from two connections, one writes the one subscription.renewed', async () => {
      const { store, connectAgain } = opened();
      const { types, subscribe } = await givenShop(store);
      const sub = await subscribe();
      const other = await connectAgain();
      const renewal = { status: 'active' as const, currentPeriodEnd: sub.currentPeriodEnd + 30 * DAY, asOf: T0 + 31 * DAY };

      const events = await types(() => Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? other : store).subscriptions.update(sub.processorSubscriptionId, renewal))));

      expect(events).toEqual(['subscription.renewed']);
      expect((await store.subscriptions.findById(sub.developerId, sub.id))!.currentPeriodEnd).toBe(renewal.currentPeriodEnd);
    });

    test('of 20 concurrent records of one processor subscription, one writes the one subscription.created', async () => {
      const { store, connectAgain } = opened();
      const { parties, types, license } = await givenShop(store);
      const l = await license();
      const other = await connectAgain();
      const sub = aSubscription({ ...parties, licenseId: l.id });

      const events = await types(() => Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? other : store).subscriptions.create({ ...sub, id: `sub_${i}_${unique()}` }))));

      expect(events).toEqual(['subscription.created']);
    });

    test('a trial license is announced once, three days before its end; a paid, revoked or ended one never', async () => {
      const { store } = opened();
      const { types, license } = await givenShop(store);
      const end = T0 + 14 * DAY;
      const trial = await license({ trial: true, expiresAt: end });
      await license({ trial: false, expiresAt: end });
      await license({ trial: true, expiresAt: end, storedStatus: 'revoked' });
      const over = await license({ trial: true, expiresAt: T0 - DAY });

      expect(await types(() => store.outbox.announceTrialEndings(end - 3 * DAY - 1, 10))).toEqual([]);
      const written = await types(() => store.outbox.announceTrialEndings(end - 3 * DAY, 10));
      expect(written).toEqual(['trial.ending']);
      expect(await types(() => store.outbox.announceTrialEndings(end - DAY, 10))).toEqual([]);
      const events = (await store.outbox.listEvents(trial.developerId, { limit: 10, licenseId: trial.id }))!.data;
      expect(events.filter((e) => e.type === 'trial.ending').map((e) => (e.data as any).license.id)).toEqual([trial.id]);
      expect((await store.outbox.listEvents(trial.developerId, { limit: 10, licenseId: over.id }))!.data.map((e) => e.type)).toEqual(['license.created']);
    });

    test('a trial given a new end is announced again before it', async () => {
      const { store } = opened();
      const { parties, types } = await givenShop(store);
      const end = T0 + 14 * DAY;
      const keyHash = `hash_${unique()}`;
      const trial = aLicense(parties, { trial: true, expiresAt: end });
      await store.licenses.create(trial, keyHash);
      await types(async () => undefined);
      expect(await types(() => store.outbox.announceTrialEndings(end - DAY, 10))).toEqual(['trial.ending']);

      const later = end + 7 * DAY;
      await store.licenses.reissue(trial.id, { expectKeyHash: keyHash, licenseKey: `h.p.${unique()}`, keyHash: `hash_${unique()}`, expiresAt: later, features: trial.features, at: end - DAY });
      expect(await types(() => store.outbox.announceTrialEndings(end - DAY, 10))).toEqual([]);
      expect(await types(() => store.outbox.announceTrialEndings(later - DAY, 10))).toEqual(['trial.ending']);
    });

    test('20 concurrent sweeps from two connections announce a trial ending once', async () => {
      const { store, connectAgain } = opened();
      const { types, license } = await givenShop(store);
      const end = T0 + 14 * DAY;
      for (let i = 0; i < 5; i++) await license({ trial: true, expiresAt: end + i });
      const other = await connectAgain();

      const events = await types(() => Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? other : store).outbox.announceTrialEndings(end - DAY, 2))));

      expect(events).toEqual(Array(5).fill('trial.ending'));
    });
  });
}
