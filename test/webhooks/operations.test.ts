import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { deliverDue } from '../../src/app/outgoing-webhooks/deliver.ts';
import { seller } from '../support/http.ts';
import { postgresStores, sqliteMemoryStores, type TestStore } from '../contracts/stores.ts';
import { receiver, webhookWorld } from './support.ts';

const LEASE = { leaseMs: 60_000, limit: 50 };
const HOUR = 3_600_000;

/**
 * Webhook operations after an outage, on each store: the delivery log filtered by status, and every
 * delivery that failed for good in a time range sent again in one call, each once.
 */
for (const factory of [sqliteMemoryStores, postgresStores]) {
  describe(`webhook operations on ${factory.name}`, () => {
    let opened: TestStore;
    let answer = 500;
    const hook = receiver(() => answer);
    let world: ReturnType<typeof webhookWorld>;
    let me: Awaited<ReturnType<typeof seller>>;
    let endpointId: string;
    let t0: number;
    let afterFirst: number;
    let afterLast: number;
    const call = (method: string, path: string, body?: unknown) => world.api.call(method, path, { key: me.apiKey, body });
    const list = async (query: string) => (await call('GET', `/developers/webhook-endpoints/${endpointId}/deliveries?${query}`)).body;

    beforeAll(async () => {
      opened = await factory.open();
      // No retries: a delivery the endpoint refuses fails for good at once.
      world = webhookWorld(opened.store, { schedule: [] });
      me = await seller(world.api);
      endpointId = (await call('POST', '/developers/webhook-endpoints', { url: hook.url, events: ['license.created'] })).body.id;
      // Events are stamped by the store's own time: the range is cut between real milliseconds.
      t0 = Date.now();
      await me.grant();
      await Bun.sleep(3);
      afterFirst = Date.now();
      await Bun.sleep(3);
      await me.grant();
      await me.grant();
      afterLast = Date.now() + 1;
      expect((await deliverDue(world.sender, LEASE)).map((o) => o.status)).toEqual(['failed', 'failed', 'failed']);
    });
    afterAll(async () => {
      hook.stop();
      await opened?.dispose();
    });

    test('the delivery log filters by status', async () => {
      expect((await list('status=failed')).data).toHaveLength(3);
      expect((await list('status=succeeded')).data).toEqual([]);
      const paged = await list('status=failed&limit=2');
      expect(paged.hasMore).toBe(true);
      const rest = await list(`status=failed&limit=2&startingAfter=${paged.data[1].id}`);
      expect(rest).toMatchObject({ hasMore: false, data: [expect.objectContaining({ status: 'failed' })] });
      const bad = await call('GET', `/developers/webhook-endpoints/${endpointId}/deliveries?status=lost`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('invalid_request');
    });

    test('bad ranges and unknown endpoints are refused', async () => {
      const redeliver = (body: unknown, id = endpointId) => call('POST', `/developers/webhook-endpoints/${id}/redeliver`, body);
      for (const body of [{ from: t0, to: t0 }, { from: t0, to: t0 + 32 * 24 * HOUR }, { from: 'yesterday', to: t0 }, { to: t0 }, { from: -1, to: t0 }]) {
        const refused = await redeliver(body);
        expect(refused.status).toBe(400);
        expect(refused.body.error.code).toBe('invalid_request');
      }
      expect((await redeliver({ from: t0, to: t0 + HOUR }, 'we_nope')).status).toBe(404);
      const other = await seller(world.api);
      const theirs = await world.api.call('POST', `/developers/webhook-endpoints/${endpointId}/redeliver`, { key: other.apiKey, body: { from: t0, to: t0 + HOUR } });
      expect(theirs.status).toBe(404);
    });

    test('the failed deliveries of a range go again, each once, even with two calls at once', async () => {
      const range = { from: afterFirst, to: afterLast };
      const [a, b] = await Promise.all([
        call('POST', `/developers/webhook-endpoints/${endpointId}/redeliver`, range),
        call('POST', `/developers/webhook-endpoints/${endpointId}/redeliver`, range),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(a.body.redelivered + b.body.redelivered).toBe(2);
      expect(a.body.hasMore || b.body.hasMore).toBe(false);
      // Again: nothing failed is left in the range.
      expect((await call('POST', `/developers/webhook-endpoints/${endpointId}/redeliver`, range)).body).toEqual({ redelivered: 0, hasMore: false });
      expect((await list('status=pending')).data).toHaveLength(2);
      expect((await list('status=failed')).data).toHaveLength(1);
      answer = 200;
      expect((await deliverDue(world.sender, LEASE)).map((o) => o.status)).toEqual(['succeeded', 'succeeded']);
      expect((await list('status=succeeded')).data).toHaveLength(2);
    });

    test('a disabled endpoint is refused with 409 until enabled', async () => {
      expect((await call('PATCH', `/developers/webhook-endpoints/${endpointId}`, { enabled: false })).status).toBe(200);
      const refused = await call('POST', `/developers/webhook-endpoints/${endpointId}/redeliver`, { from: t0, to: t0 + HOUR });
      expect(refused.status).toBe(409);
      expect((await list('status=failed')).data).toHaveLength(1);
    });
  });
}
