import { describe, expect, test } from 'bun:test';
import type { Database } from 'bun:sqlite';
import type { SQL } from 'bun';
import { sweepOutbox, OUTBOX_TIMES } from '../../src/app/outgoing-webhooks/sweep-outbox.ts';
import type { Store } from '../../src/ports/deps.ts';
import { NEW_ORDER } from '../../src/domain/order.ts';
import { freshStorePerTest, postgresStores, sqliteStores } from '../contracts/stores.ts';
import { seller } from '../support/http.ts';
import { SANDBOX_CODE } from '../checkout/shop.ts';
import { webhookWorld } from './support.ts';

/** Reads (and to arrange a case, writes) the store's tables directly, on either SQL store. */
function tables(store: Store) {
  const sqlite = (store as unknown as { sqlite?: Database }).sqlite;
  const pg = (store as unknown as { sql?: SQL }).sql;
  return {
    async rows<T = Record<string, any>>(query: string): Promise<T[]> {
      return sqlite ? (sqlite.query(query).all() as T[]) : ([...(await pg!.unsafe(query))] as T[]);
    },
  };
}

describe.each([sqliteStores, postgresStores].map((f) => [f.name, f] as const))('the outbox on %s', (_, factory) => {
  const current = freshStorePerTest(factory);

  /**
   * Seller A: an endpoint for every event, one for license.revoked only, one disabled; seller B: an
   * endpoint for every event. `change` must write exactly one event of A's, of `type`.
   */
  async function setUp() {
    const { store } = current();
    const world = webhookWorld(store, { allowPrivate: false });
    const { api } = world;
    const a = await seller(api);
    const b = await seller(api);
    const register = async (key: string, body: Record<string, unknown>) => (await api.call('POST', '/developers/webhook-endpoints', { key, body: { url: 'https://hooks.example.com/x', ...body } })).body.id as string;
    const all = await register(a.apiKey, {});
    const revocations = await register(a.apiKey, { events: ['license.revoked'] });
    const off = await register(a.apiKey, {});
    await api.call('PATCH', `/developers/webhook-endpoints/${off}`, { key: a.apiKey, body: { enabled: false } });
    const others = await register(b.apiKey, {});
    const db = tables(store);
    const eventsOf = async (developerId: string) => (await store.outbox.listEvents(developerId, { limit: 100 }))!.data;

    /** Runs the change; its one new event of A's, and the endpoints it is to be delivered to. */
    const change = async (action: () => Promise<unknown>) => {
      const before = new Set((await eventsOf(a.id)).map((e) => e.id));
      const othersBefore = (await eventsOf(b.id)).length;
      await action();
      const fresh = (await eventsOf(a.id)).filter((e) => !before.has(e.id));
      expect((await eventsOf(b.id)).length).toBe(othersBefore);
      const deliveries = (await db.rows<{ endpoint_id: string; event_id: string }>('SELECT endpoint_id, event_id FROM webhook_deliveries'))
        .filter((d) => fresh.some((e) => e.id === d.event_id));
      return {
        events: fresh.map((e) => ({ type: e.type, data: e.data })),
        endpoints: deliveries.map((d) => d.endpoint_id).sort(),
      };
    };
    /** Re-signs the license in place with a new expiry (a renewal; with `convert`, a trial's conversion). */
    const renew = async (licenseId: string, expiresAt: number, extra: { convert?: {}; expectKeyHash?: string } = {}) => {
      const [row] = await db.rows<{ key_hash: string }>(`SELECT key_hash FROM licenses WHERE id = '${licenseId}'`);
      const change = { expectKeyHash: row!.key_hash, licenseKey: `h.p.${expiresAt}`, keyHash: `hash_${expiresAt}`, expiresAt, features: ['pro'], at: clockNow(), ...extra };
      return store.licenses.reissue(licenseId, change);
    };
    const clockNow = () => world.clock.now();
    return { ...world, a, b, db, change, renew, endpoints: { all, revocations, off, others } };
  }

  test('a license granted, revoked, renewed and expired: one event each, to the endpoints that take it', async () => {
    const { api, a, change, endpoints, clock, renew } = await setUp();
    let license: any;
    const created = await change(async () => ({ license } = await a.grant({ expiresAt: clock.now() + 60_000 })));
    expect(created.events).toEqual([{ type: 'license.created', data: { license: expect.objectContaining({ id: license.id, productId: a.product.id, status: 'active', features: ['pro'], trial: false, subscriptionId: null, customerEmail: 'buyer@example.com' }) } }]);
    expect(created.endpoints).toEqual([endpoints.all]);

    const renewed = await change(() => renew(license.id, license.expiresAt + 86_400_000));
    expect(renewed.events).toEqual([{ type: 'license.renewed', data: { license: expect.objectContaining({ id: license.id, expiresAt: license.expiresAt + 86_400_000 }) } }]);

    clock.advance(2 * 86_400_000);
    const expired = await change(() => sweepOutbox({ clock, outbox: current().store.outbox }));
    expect(expired.events).toEqual([{ type: 'license.expired', data: { license: expect.objectContaining({ id: license.id, status: 'expired' }) } }]);
    expect((await change(() => sweepOutbox({ clock, outbox: current().store.outbox }))).events).toEqual([]); // announced once

    const revoked = await change(() => api.call('POST', `/licenses/${license.id}/revoke`, { key: a.apiKey }));
    expect(revoked.events).toEqual([{ type: 'license.revoked', data: { license: expect.objectContaining({ id: license.id, status: 'revoked' }) } }]);
    expect(revoked.endpoints).toEqual([endpoints.all, endpoints.revocations].sort());
  });

  test('a trial converted to a paid license: license.converted', async () => {
    const { a, change, db, renew } = await setUp();
    const { license } = await a.grant();
    await db.rows(`UPDATE licenses SET trial = true WHERE id = '${license.id}'`);

    const converted = await change(() => renew(license.id, license.expiresAt, { convert: {} }));

    expect(converted.events).toEqual([{ type: 'license.converted', data: { license: expect.objectContaining({ id: license.id, trial: false }) } }]);
  });

  test('a machine activated and removed: activation.created, activation.deleted', async () => {
    const { api, a, change } = await setUp();
    const { license, licenseKey } = await a.grant();
    let activation: any;
    const added = await change(async () => ({ activation } = (await api.call('POST', '/licenses/activate', { key: a.publishableKey, body: { licenseKey, machineFingerprint: 'fp-1', name: 'host' } })).body));
    expect(added.events).toEqual([{ type: 'activation.created', data: { activation: { id: activation.id, licenseId: license.id, productId: a.product.id, customerId: expect.any(String), machineFingerprint: 'fp-1', name: 'host', createdAt: expect.any(Number) } } }]);

    const removed = await change(() => api.call('DELETE', `/licenses/${license.id}/activations/${activation.id}`, { key: a.apiKey }));
    expect(removed.events).toEqual([{ type: 'activation.deleted', data: { activation: expect.objectContaining({ id: activation.id }) } }]);
  });

  test('an order recorded and refunded: order.completed, order.refunded', async () => {
    const { a, change } = await setUp();
    const { license } = await a.grant();
    const store = current().store;
    const order = { id: 'ord_emission', developerId: a.id, customerId: license.customerId, productId: a.product.id, licenseId: license.id, source: 'checkout', sourceId: 'cs_emission', amount: 1999, currency: 'usd', processor: 'sandbox', paymentId: 'pi_emission', processorReference: null, ...NEW_ORDER, createdAt: 1 } as const;

    const paid = await change(() => store.orders.record(order));
    expect(paid.events).toEqual([{ type: 'order.completed', data: { order: expect.objectContaining({ id: 'ord_emission', amount: 1999, currency: 'usd', status: 'paid', licenseId: license.id, customerEmail: 'buyer@example.com' }) } }]);
    expect((await change(() => store.orders.record(order))).events).toEqual([]); // recorded once

    const refunded = await change(() => store.orders.refund('ord_emission', 1999, 2));
    expect(refunded.events).toEqual([{ type: 'order.refunded', data: { order: expect.objectContaining({ id: 'ord_emission', status: 'refunded', amountRefunded: 1999, refundedAt: 2 }) } }]);
    expect((await change(() => store.orders.refund('ord_emission', 1999, 3))).events).toEqual([]); // refunded once
  });

  test('a checkout nobody came back to is expired by the sweep an hour after its expiry: checkout.expired, once', async () => {
    const { api, a, change, clock } = await setUp();
    const start = await api.call('POST', '/connect/start', { key: a.apiKey });
    const state = new URL(start.body.url).searchParams.get('state')!;
    await api.call('GET', `/connect/callback?${new URLSearchParams({ code: SANDBOX_CODE, state })}`);
    const init = await api.call('POST', '/checkout/init', { key: a.apiKey, body: { productId: a.product.id, email: 'later@example.com' } });
    expect(init.status).toBe(201);

    clock.advance(30 * 60_000 + OUTBOX_TIMES.checkoutExpiryGraceMs);
    const expired = await change(() => sweepOutbox({ clock, outbox: current().store.outbox }));

    expect(expired.events).toEqual([{ type: 'checkout.expired', data: { checkout: expect.objectContaining({ id: init.body.sessionId, productId: a.product.id, email: 'later@example.com' }) } }]);
    expect((await change(() => sweepOutbox({ clock, outbox: current().store.outbox }))).events).toEqual([]);
  });

  test('a change that does not apply writes no event', async () => {
    const { a, change, renew } = await setUp();
    const { license } = await a.grant();

    const nothing = await change(() => renew(license.id, license.expiresAt + 86_400_000, { expectKeyHash: 'not-the-current-digest' }));

    expect(nothing).toEqual({ events: [], endpoints: [] });
  });

  test('retention deletes events older than 30 days with their deliveries and attempts', async () => {
    const { a, clock, db } = await setUp();
    await a.grant();
    clock.advance(OUTBOX_TIMES.eventRetentionMs + 60_000);

    const report = await sweepOutbox({ clock, outbox: current().store.outbox });

    expect(report.outgoingEvents).toBeGreaterThanOrEqual(1);
    expect(await db.rows(`SELECT id FROM outgoing_events WHERE developer_id = '${a.id}'`)).toEqual([]);
    expect(await db.rows(`SELECT id FROM webhook_deliveries WHERE developer_id = '${a.id}'`)).toEqual([]);
  });
});
