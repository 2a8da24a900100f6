import { describe, expect, test } from 'bun:test';
import { sweepExpired } from '../../src/app/maintenance/sweep.ts';
import { STORE_FACTORIES } from '../contracts/stores.ts';
import { leasing, servedApi, type ServedApi } from './support.ts';

const countOf = <T,>(items: T[], ok: (item: T) => boolean) => items.filter(ok).length;

/** Every store, over a real HTTP server, on a fixed clock. */
for (const factory of STORE_FACTORIES) {
  describe(`floating leases on ${factory.name}`, () => {
    async function world<T>(run: (api: ServedApi) => Promise<T>): Promise<T> {
      const opened = await factory.open();
      const api = servedApi(opened.store);
      try {
        return await run(api);
      } finally {
        api.stop();
        await opened.dispose();
      }
    }

    test('12 concurrent checkouts with maxLeases 3 give exactly 3 leases; the other 9 are 409 lease_limit with the live count', () =>
      world(async (api) => {
        const { checkout, s, license } = await leasing(api, { maxLeases: 3 });
        const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => checkout(`machine-${i}`)));
        expect(countOf(replies, (r) => r.status === 201)).toBe(3);
        const refused = replies.filter((r) => r.status === 409);
        expect(refused).toHaveLength(9);
        for (const r of refused) expect(r.body.error).toMatchObject({ code: 'lease_limit', details: { live: 3, maxLeases: 3 } });
        const listed = await api.call('GET', `/licenses/${license.id}/leases`, { key: s.apiKey });
        expect(listed.body.live).toHaveLength(3);
      }));

    test('8 concurrent checkouts from one fingerprint give one lease and no 409', () =>
      world(async (api) => {
        const { checkout } = await leasing(api, { maxLeases: 1 });
        const replies = await Promise.all(Array.from({ length: 8 }, () => checkout('the-one-machine')));
        expect(countOf(replies, (r) => r.status === 409)).toBe(0);
        expect(countOf(replies, (r) => r.status === 201)).toBe(1);
        expect(countOf(replies, (r) => r.status === 200)).toBe(7);
        expect(new Set(replies.map((r) => r.body.lease.id)).size).toBe(1);
      }));

    test('a heartbeat after expiry, once another machine holds the seat, answers 410 lease_expired', () =>
      world(async (api) => {
        const { checkout, heartbeat } = await leasing(api, { maxLeases: 1, leaseSeconds: 60 });
        const first = await checkout('first');
        expect(first.status).toBe(201);
        api.clock.advance(60_000);
        expect((await checkout('second')).status).toBe(201);
        const late = await heartbeat(first.body.lease.id);
        expect(late.status).toBe(410);
        expect(late.body.error.code).toBe('lease_expired');
        expect((await checkout('first')).status).toBe(409);
      }));

    test('a heartbeat extends a live lease by leaseSeconds from now; a killed client’s lease frees its seat after leaseSeconds with no sweep', () =>
      world(async (api) => {
        const { checkout, heartbeat } = await leasing(api, { maxLeases: 1, leaseSeconds: 120 });
        const held = await checkout('killed');
        api.clock.advance(100_000);
        const beat = await heartbeat(held.body.lease.id);
        expect(beat.status).toBe(200);
        expect(beat.body.lease.expiresAt).toBe(api.clock.now() + 120_000);
        // The client is killed: no heartbeat, no release.
        api.clock.advance(119_999);
        expect((await checkout('other')).status).toBe(409);
        api.clock.advance(1);
        expect((await checkout('other')).status).toBe(201);
      }));

    test('release frees the seat at once and is idempotent', () =>
      world(async (api) => {
        const { checkout, release } = await leasing(api, { maxLeases: 1 });
        const held = await checkout('a');
        expect((await release(held.body.lease.id)).body).toEqual({ lease: { id: held.body.lease.id }, released: true });
        expect((await release(held.body.lease.id)).body).toEqual({ lease: { id: held.body.lease.id }, released: false });
        expect((await checkout('b')).status).toBe(201);
      }));

    test('a borrowed lease holds its seat until its token ends: release is 409 lease_borrowed, another machine gets 409 lease_limit', () =>
      world(async (api) => {
        const { checkout, release, heartbeat } = await leasing(api, { maxLeases: 1, maxBorrowHours: 48 });
        const borrowed = await checkout('laptop', { borrowHours: 48 });
        expect(borrowed.status).toBe(201);
        const refused = await release(borrowed.body.lease.id);
        expect(refused.status).toBe(409);
        expect(refused.body.error).toMatchObject({ code: 'lease_borrowed', details: { expiresAt: borrowed.body.lease.expiresAt } });
        expect((await checkout('desktop', { borrowHours: 48 })).body.error.code).toBe('lease_limit');
        // Checking out again from the laptop without borrowing leaves it borrowed: still no release, no shorter end.
        expect((await checkout('laptop')).status).toBe(200);
        expect((await heartbeat(borrowed.body.lease.id)).body.lease.expiresAt).toBe(borrowed.body.lease.expiresAt);
        expect((await release(borrowed.body.lease.id)).body.error.code).toBe('lease_borrowed');
        api.clock.advance(48 * 3_600_000 - 1);
        expect((await checkout('desktop')).body.error.code).toBe('lease_limit');
        api.clock.advance(1);
        expect((await checkout('desktop')).status).toBe(201);
        // Past its end the row may still be there (no sweep yet): releasing it is refused no longer.
        expect((await release(borrowed.body.lease.id)).status).toBe(200);
      }));

    test('events: lease.created, lease.limit_reached, lease.released and lease.expired, each once, swept twice', () =>
      world(async (api) => {
        const { checkout, release, s, license } = await leasing(api, { maxLeases: 2, leaseSeconds: 60 });
        const hook = await api.call('POST', '/developers/webhook-endpoints', { key: s.apiKey, body: { url: 'https://hooks.example.com/leases', events: ['lease.created', 'lease.released', 'lease.expired', 'lease.limit_reached'] } });
        expect(hook.status).toBe(201);
        const a = await checkout('a');
        await checkout('a');
        await checkout('b');
        await checkout('c');
        await release(a.body.lease.id);
        api.clock.advance(60_000);
        await sweepExpired(api.deps);
        await sweepExpired(api.deps);
        const events = (await api.call('GET', `/developers/events?licenseId=${license.id}&limit=100`, { key: s.apiKey })).body.data;
        const types = events.map((e: { type: string }) => e.type).filter((t: string) => t.startsWith('lease.')).sort();
        expect(types).toEqual(['lease.created', 'lease.created', 'lease.expired', 'lease.limit_reached', 'lease.released']);
        const expired = events.find((e: { type: string }) => e.type === 'lease.expired');
        expect(expired.data.lease).toMatchObject({ licenseId: license.id, machineFingerprint: 'b', productId: s.product.id });
        // One delivery per event to the endpoint that takes them: each event goes out once.
        const deliveries = (await api.call('GET', `/developers/webhook-endpoints/${hook.body.id}/deliveries?limit=100`, { key: s.apiKey })).body.data;
        expect(deliveries.map((d: { eventType: string }) => d.eventType).sort()).toEqual(types);
        expect(new Set(deliveries.map((d: { eventId: string }) => d.eventId)).size).toBe(types.length);
      }));
  });
}
