import { describe, expect, test } from 'bun:test';
import type { WebhookEndpoint } from '../../src/domain/webhook-endpoint.ts';
import type { Store } from '../../src/ports/deps.ts';
import { aCustomer, aLicense, DAY, givenLicenseParties, T0, unique } from './builders.ts';
import { aCheckoutSession } from './checkout-builders.ts';
import { anOrder } from './order-builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

/** What an event reports about, whatever its type: the id of its license, activation, order or checkout. */
function subjectOf(data: any): string {
  const [subject] = Object.values(data as Record<string, { id: string }>);
  return subject!.id;
}

/** A seller with a license, and a way to see exactly which events a change writes. */
async function givenSeller(store: Store) {
  const parties = await givenLicenseParties(store);
  const license = aLicense(parties);
  const keyHash = `hash_${unique()}`;
  await store.licenses.create(license, keyHash);
  const seen = new Set((await store.outbox.listEvents(parties.developerId, { limit: 100 }))!.data.map((e) => e.id));
  /** The events `action` wrote, oldest first, as type and subject. */
  const written = async (action: () => Promise<unknown>) => {
    await action();
    const all = (await store.outbox.listEvents(parties.developerId, { limit: 100 }))!.data.filter((e) => !seen.has(e.id));
    for (const e of all) seen.add(e.id);
    return all.reverse().map((e) => ({ type: e.type, subject: subjectOf(e.data) }));
  };
  return { parties, license, keyHash, written };
}

const renewal = (expectKeyHash: string, expiresAt: number | null, extra = {}) => ({ expectKeyHash, licenseKey: `h.p.${unique()}`, keyHash: `hash_${unique()}`, expiresAt, features: ['export'], at: T0, ...extra });

export function outgoingEventsContract(factory: StoreFactory): void {
  describe(`Outgoing events on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a new license writes license.created, with its status as stored', async () => {
      const { store } = opened();
      const parties = await givenLicenseParties(store);
      const license = aLicense(parties, { storedStatus: 'revoked' });

      await store.licenses.create(license, `hash_${unique()}`);

      const [event, ...rest] = (await store.outbox.listEvents(parties.developerId, { limit: 10 }))!.data;
      expect(rest).toEqual([]);
      expect(event).toMatchObject({ type: 'license.created', data: { license: { id: license.id, status: 'revoked', trial: false } } });
    });

    test('revoking writes license.revoked once; restoring, a new machine limit or the same status again write nothing', async () => {
      const { store } = opened();
      const { license, written } = await givenSeller(store);

      expect(await written(() => store.licenses.update(license.id, { maxMachines: 5 }))).toEqual([]);
      expect(await written(() => store.licenses.update(license.id, { storedStatus: 'revoked' }))).toEqual([{ type: 'license.revoked', subject: license.id }]);
      expect(await written(() => store.licenses.update(license.id, { storedStatus: 'revoked' }))).toEqual([]);
      expect(await written(() => store.licenses.update(license.id, { storedStatus: 'active' }))).toEqual([]);
    });

    test('a reissue with a later expiry writes license.renewed, an earlier one license.updated; the same one, or a lost compare-and-swap, nothing', async () => {
      const { store } = opened();
      const { license, keyHash, written } = await givenSeller(store);
      const later = renewal(keyHash, license.expiresAt! + DAY);
      const same = renewal(later.keyHash, later.expiresAt);
      const earlier = renewal(same.keyHash, license.expiresAt);

      expect(await written(() => store.licenses.reissue(license.id, later))).toEqual([{ type: 'license.renewed', subject: license.id }]);
      expect(await written(() => store.licenses.reissue(license.id, renewal(keyHash, license.expiresAt! + 9 * DAY)))).toEqual([]);
      expect(await written(() => store.licenses.reissue(license.id, same))).toEqual([]);
      expect(await written(() => store.licenses.reissue(license.id, earlier))).toEqual([{ type: 'license.updated', subject: license.id }]);
    });

    test('a reissue that changes only the entitlements writes license.updated; another spelling or order of the same set, nothing', async () => {
      const { store } = opened();
      const { license, keyHash, written } = await givenSeller(store);
      const sameTerm = (expectKeyHash: string, features: string[]) => renewal(expectKeyHash, license.expiresAt, { features });
      const respelled = sameTerm(keyHash, license.features.map((f) => f.toUpperCase()).reverse());
      const added = sameTerm(respelled.keyHash, [...license.features, 'cloud']);

      expect(await written(() => store.licenses.reissue(license.id, respelled))).toEqual([]);
      expect(await written(() => store.licenses.reissue(license.id, added))).toEqual([{ type: 'license.updated', subject: license.id }]);
      const [event] = (await store.outbox.listEvents(license.developerId, { limit: 1 }))!.data;
      expect((event!.data as { license: { features: string[] } }).license.features).toEqual([...license.features, 'cloud']);
    });

    test('a trial converted writes license.converted, not license.renewed', async () => {
      const { store } = opened();
      const { parties, written } = await givenSeller(store);
      const trial = aLicense(parties, { trial: true, expiresAt: T0 + 7 * DAY });
      const keyHash = `hash_${unique()}`;
      await written(() => store.licenses.create(trial, keyHash));

      const events = await written(() => store.licenses.reissue(trial.id, renewal(keyHash, T0 + 365 * DAY, { convert: {} })));

      expect(events).toEqual([{ type: 'license.converted', subject: trial.id }]);
    });

    test('a new machine writes activation.created; a known machine or a full license nothing; removals activation.deleted each', async () => {
      const { store } = opened();
      const { license, written } = await givenSeller(store);
      const activate = (id: string, machineFingerprint: string) => store.licenses.activate(license.id, { id, machineFingerprint, name: null, at: T0 });

      expect(await written(() => activate('act_1', 'fp-1'))).toEqual([{ type: 'activation.created', subject: 'act_1' }]);
      expect(await written(() => activate('act_again', 'fp-1'))).toEqual([]);
      expect(await written(() => activate('act_2', 'fp-2'))).toEqual([]); // maxMachines 1: full
      expect(await written(() => store.licenses.deactivate(license.id, { machineFingerprint: 'fp-none' }))).toEqual([]);
      expect(await written(() => store.licenses.deactivate(license.id, { activationId: 'act_1' }, { limit: 0, now: T0, windowMs: DAY }))).toEqual([]); // over quota
      expect(await written(() => store.licenses.deactivate(license.id, { activationId: 'act_1' }))).toEqual([{ type: 'activation.deleted', subject: 'act_1' }]);

      await written(async () => {
        await store.licenses.update(license.id, { maxMachines: 3 });
        await activate('act_3', 'fp-3');
        await activate('act_4', 'fp-4');
      });
      const unbound = await written(() => store.licenses.unbind(license.id));
      expect(unbound.map((e) => `${e.type} ${e.subject}`).sort()).toEqual(['activation.deleted act_3', 'activation.deleted act_4']);
    });

    test('a trial started writes license.created and activation.created; a trial refused writes nothing', async () => {
      const { store } = opened();
      const { parties, written } = await givenSeller(store);
      const start = (email: string, machineFingerprint: string) => {
        const customer = aCustomer({ email });
        const license = aLicense({ ...parties, customerId: customer.id }, { trial: true });
        return store.trials.start({ customer, license, keyHash: `hash_${unique()}`, machine: { id: `act_${unique()}`, machineFingerprint, name: null, at: T0 } });
      };

      const started = await written(() => start('trial@example.com', 'fp-trial'));
      // Events of one millisecond list in no promised order.
      expect(started.map((e) => e.type).sort()).toEqual(['activation.created', 'license.created']);
      expect(await written(() => start('other@example.com', 'fp-trial'))).toEqual([]);
    });

    test('a license whose origin already has one is refused and writes nothing', async () => {
      const { store } = opened();
      const { parties, written } = await givenSeller(store);
      await written(() => store.licenses.create(aLicense(parties), `hash_${unique()}`, { checkoutSessionId: 'cs_same' }));

      const refused = store.licenses.create(aLicense(parties), `hash_${unique()}`, { checkoutSessionId: 'cs_same' });

      await expect(refused).rejects.toMatchObject({ code: 'conflict' });
      expect(await written(async () => undefined)).toEqual([]);
    });

    test('an order recorded writes order.completed once; each refund (partial or full) order.refunded once', async () => {
      const { store } = opened();
      const { parties, license, written } = await givenSeller(store);
      const order = anOrder({ ...parties, licenseId: license.id });

      expect(await written(() => store.orders.record(order))).toEqual([{ type: 'order.completed', subject: order.id }]);
      expect(await written(() => store.orders.record({ ...order, id: `ord_${unique()}` }))).toEqual([]);
      expect(await written(() => store.orders.refund(order.id, 100, T0 + 1))).toEqual([{ type: 'order.refunded', subject: order.id }]);
      expect(await written(() => store.orders.refund(order.id, order.amount, T0 + 2))).toEqual([{ type: 'order.refunded', subject: order.id }]);
      expect(await written(() => store.orders.refund(order.id, order.amount, T0 + 3))).toEqual([]);
    });

    test('a pending checkout expired writes checkout.expired once; a completed one nothing', async () => {
      const { store } = opened();
      const { parties, license, written } = await givenSeller(store);
      const pending = aCheckoutSession(parties);
      const paid = aCheckoutSession(parties);
      await store.checkouts.create(pending);
      await store.checkouts.create(paid);

      expect(await written(() => store.checkouts.update(pending.id, { storedStatus: 'expired' }, { storedStatus: 'pending' }))).toEqual([{ type: 'checkout.expired', subject: pending.id }]);
      expect(await written(() => store.checkouts.update(pending.id, { storedStatus: 'expired' }, { storedStatus: 'pending' }))).toEqual([]);
      expect(await written(() => store.checkouts.markComplete(paid.id, { licenseId: license.id, customerId: parties.customerId, paymentId: null, completedAt: T0 }))).toEqual([]);
      expect(await written(() => store.checkouts.update(paid.id, { storedStatus: 'expired' }, { storedStatus: 'pending' }))).toEqual([]);
    });

    test('the sweep announces each active license past its expiry once (license.expired) and each abandoned checkout once', async () => {
      const { store } = opened();
      const { parties, license, written } = await givenSeller(store);
      const revoked = aLicense(parties, { storedStatus: 'revoked' });
      await store.licenses.create(revoked, `hash_${unique()}`);
      const abandoned = aCheckoutSession(parties);
      await store.checkouts.create(abandoned);
      await written(async () => undefined);
      const later = license.expiresAt! + DAY;

      expect(await written(() => store.outbox.announceExpiries(later, 10))).toEqual([{ type: 'license.expired', subject: license.id }]);
      expect(await written(() => store.outbox.announceExpiries(later, 10))).toEqual([]);
      expect(await written(() => store.outbox.expireCheckouts(abandoned.expiresAt, 10))).toEqual([{ type: 'checkout.expired', subject: abandoned.id }]);
      expect(await written(() => store.outbox.expireCheckouts(abandoned.expiresAt, 10))).toEqual([]);
    });

    test('an event is delivered to each enabled endpoint of its seller that takes its type, and to no other', async () => {
      const { store } = opened();
      const { parties, license } = await givenSeller(store);
      const other = await givenLicenseParties(store);
      const endpoint = async (developerId: string, overrides: Partial<WebhookEndpoint> = {}) => {
        const e: WebhookEndpoint = { id: `we_${unique()}`, developerId, url: 'https://hooks.example.com/x', description: null, events: null, sealedSecret: 's', enabled: true, disabledReason: null, failingSince: null, createdAt: T0, updatedAt: T0, ...overrides };
        await store.webhookEndpoints.create(e, 20);
        return e.id;
      };
      const every = await endpoint(parties.developerId);
      const revocations = await endpoint(parties.developerId, { events: ['license.revoked'] });
      const creations = await endpoint(parties.developerId, { events: ['license.created'] });
      const disabled = await endpoint(parties.developerId, { enabled: false, disabledReason: 'disabled by you' });
      const anotherSeller = await endpoint(other.developerId);

      await store.licenses.update(license.id, { storedStatus: 'revoked' });

      const deliveredTo = async (endpointId: string, developerId = parties.developerId) => (await store.outbox.listDeliveries(developerId, endpointId, { limit: 10 })).data.map((d) => d.eventType);
      expect(await deliveredTo(every)).toEqual(['license.revoked']);
      expect(await deliveredTo(revocations)).toEqual(['license.revoked']);
      expect(await deliveredTo(creations)).toEqual([]);
      expect(await deliveredTo(disabled)).toEqual([]);
      expect(await deliveredTo(anotherSeller, other.developerId)).toEqual([]);
    });

    test('of 20 concurrent revocations expecting an active license, one wins and writes the one license.revoked', async () => {
      const { store, connectAgain } = opened();
      const { license, written } = await givenSeller(store);
      const other = await connectAgain();

      const events = await written(() =>
        Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? other : store).licenses.update(license.id, { storedStatus: 'revoked' }, { storedStatus: 'active' }))),
      );

      expect(events).toEqual([{ type: 'license.revoked', subject: license.id }]);
    });

    test('of 20 concurrent expiries expecting a pending checkout, one wins and writes the one checkout.expired', async () => {
      const { store, connectAgain } = opened();
      const { parties, written } = await givenSeller(store);
      const session = aCheckoutSession(parties);
      await store.checkouts.create(session);
      const other = await connectAgain();

      const events = await written(() =>
        Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? other : store).checkouts.update(session.id, { storedStatus: 'expired' }, { storedStatus: 'pending' }))),
      );

      expect(events).toEqual([{ type: 'checkout.expired', subject: session.id }]);
    });
  });
}
