import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { deliverDue } from '../../src/app/outgoing-webhooks/deliver.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import type { Store } from '../../src/ports/deps.ts';
import { seller } from '../support/http.ts';
import { receiver, signedBy, verified, webhookWorld } from './support.ts';

const LEASE = { leaseMs: 60_000, limit: 10 };
let store: Store;
let stops: (() => unknown)[] = [];

beforeEach(() => {
  store = openSqliteStore(':memory:');
});
afterEach(async () => {
  for (const stop of stops) await stop();
  stops = [];
  await store.close();
});

async function setUp(answer?: Parameters<typeof receiver>[0], options: Parameters<typeof webhookWorld>[1] = {}) {
  const world = webhookWorld(store, options);
  const hook = receiver(answer);
  stops.push(hook.stop);
  const me = await seller(world.api);
  const endpoint = await world.api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url: hook.url } });
  expect(endpoint.status).toBe(201);
  return { ...world, hook, me, endpoint: endpoint.body };
}

describe('signing (Standard Webhooks)', () => {
  test('a new license reaches the endpoint signed with its secret, verified by the standardwebhooks package', async () => {
    const { api, sender, hook, me, endpoint } = await setUp();
    const { license } = await me.grant();

    expect(await deliverDue(sender, LEASE)).toEqual([{ status: 'succeeded' }]);

    expect(hook.received).toHaveLength(1);
    const payload = verified(endpoint.secret, hook.received[0]!);
    expect(payload).toMatchObject({ type: 'license.created', data: { license: { id: license.id, productId: me.product.id, status: 'active', customerEmail: 'buyer@example.com' } } });
    expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp);
    expect(hook.received[0]!.headers['webhook-id']).toMatch(/^msg_/);
    const log = await api.call('GET', `/developers/webhook-endpoints/${endpoint.id}/deliveries`, { key: me.apiKey });
    expect(log.body.data).toEqual([expect.objectContaining({ eventType: 'license.created', status: 'succeeded', attempts: 1, lastStatus: 200, nextAttemptAt: null })]);
  });

  test('a wrong secret does not verify', async () => {
    const { sender, hook, me } = await setUp();
    await me.grant();
    await deliverDue(sender, LEASE);

    expect(() => verified('whsec_' + Buffer.alloc(24, 7).toString('base64'), hook.received[0]!)).toThrow();
  });

  test('after a rotation, messages carry both signatures for a day, then the new one only', async () => {
    const { api, clock, sender, hook, me, endpoint } = await setUp();
    const rotated = await api.call('POST', `/developers/webhook-endpoints/${endpoint.id}/rotate-secret`, { key: me.apiKey });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(endpoint.secret);

    await me.grant();
    await deliverDue(sender, LEASE);
    clock.advance(24 * 3_600_000);
    await me.grant();
    await deliverDue(sender, LEASE);

    const [during, after] = hook.received;
    expect([signedBy(endpoint.secret, during!), signedBy(rotated.body.secret, during!)]).toEqual([true, true]);
    expect([signedBy(endpoint.secret, after!), signedBy(rotated.body.secret, after!)]).toEqual([false, true]);
  });
});

describe('retries', () => {
  test('a receiver failing twice gets the same message again on the schedule, then it succeeds', async () => {
    const { api, clock, sender, hook, me, endpoint } = await setUp((n) => (n <= 2 ? 500 : 200));
    await me.grant();
    const start = clock.now();

    expect(await deliverDue(sender, LEASE)).toEqual([{ status: 'pending', nextAttemptAt: start + 5_000 }]);
    expect(await deliverDue(sender, LEASE)).toEqual([]); // not due yet
    clock.advance(5_000);
    expect(await deliverDue(sender, LEASE)).toEqual([{ status: 'pending', nextAttemptAt: start + 5_000 + 300_000 }]);
    clock.advance(300_000);
    expect(await deliverDue(sender, LEASE)).toEqual([{ status: 'succeeded' }]);

    expect(new Set(hook.received.map((m) => m.headers['webhook-id'])).size).toBe(1);
    expect(hook.received.every((m) => signedBy(endpoint.secret, m))).toBe(true);
    const [delivery] = (await api.call('GET', `/developers/webhook-endpoints/${endpoint.id}/deliveries`, { key: me.apiKey })).body.data;
    const detail = await api.call('GET', `/developers/webhook-deliveries/${delivery.id}`, { key: me.apiKey });
    expect(detail.body.attemptLog.map((a: any) => a.status)).toEqual([500, 500, 200]);
    expect(detail.body.attemptLog[0].error).toBe('HTTP 500: nope');
    expect((await api.call('GET', `/developers/webhook-endpoints/${endpoint.id}`, { key: me.apiKey })).body.failingSince).toBeNull();
  });

  test('once the schedule is spent the delivery has failed; a manual redelivery sends it again', async () => {
    let healthy = false;
    const { api, clock, sender, hook, me, endpoint } = await setUp(() => (healthy ? 200 : 503), { schedule: [1_000] });
    await me.grant();
    await deliverDue(sender, LEASE);
    clock.advance(1_000);

    expect(await deliverDue(sender, LEASE)).toEqual([{ status: 'failed' }]);
    const [delivery] = (await api.call('GET', `/developers/webhook-endpoints/${endpoint.id}/deliveries`, { key: me.apiKey })).body.data;
    expect(delivery).toMatchObject({ status: 'failed', attempts: 2, lastStatus: 503 });

    healthy = true;
    const again = await api.call('POST', `/developers/webhook-deliveries/${delivery.id}/redeliver`, { key: me.apiKey });
    expect(again.body).toMatchObject({ status: 'pending', nextAttemptAt: clock.now() });
    expect(await deliverDue(sender, LEASE)).toEqual([{ status: 'succeeded' }]);
    expect(hook.received).toHaveLength(3);
  });

  test('an endpoint whose every delivery failed for 5 days is disabled, and its pending deliveries given up', async () => {
    const { api, clock, sender, me, endpoint } = await setUp(() => 500, { schedule: Array(20).fill(86_400_000) });
    await me.grant();
    for (let day = 0; day <= 5; day++) {
      await deliverDue(sender, LEASE);
      clock.advance(86_400_000);
    }

    const after = await api.call('GET', `/developers/webhook-endpoints/${endpoint.id}`, { key: me.apiKey });
    expect(after.body).toMatchObject({ enabled: false, disabledReason: 'every delivery failed for 5 days' });
    const [delivery] = (await api.call('GET', `/developers/webhook-endpoints/${endpoint.id}/deliveries`, { key: me.apiKey })).body.data;
    expect(delivery).toMatchObject({ status: 'failed', attempts: 6 });

    const enabled = await api.call('PATCH', `/developers/webhook-endpoints/${endpoint.id}`, { key: me.apiKey, body: { enabled: true } });
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });
});

describe('what the sender refuses to do', () => {
  test('a redirect is not followed: it is a failed attempt', async () => {
    const { sender, hook, me } = await setUp((n) => (n === 1 ? new Response(null, { status: 302, headers: { location: 'http://127.0.0.1:1/' } }) : 200));
    await me.grant();

    expect(await deliverDue(sender, LEASE)).toEqual([expect.objectContaining({ status: 'pending' })]);
    expect(hook.received).toHaveLength(1);
  });

  test('an endpoint that never answers is given up after the timeout, and retried', async () => {
    const { api, sender, me, endpoint } = await setUp(() => new Promise<Response>(() => {}), { timeoutMs: 300 });
    await me.grant();

    expect(await deliverDue(sender, LEASE)).toEqual([expect.objectContaining({ status: 'pending' })]);
    const [delivery] = (await api.call('GET', `/developers/webhook-endpoints/${endpoint.id}/deliveries`, { key: me.apiKey })).body.data;
    expect(delivery).toMatchObject({ lastStatus: null, lastError: 'no answer within 0.3 s' });
  });

  test('without the allow-private setting, a loopback address is never contacted, even if registered before', async () => {
    const open = await setUp();
    const strict = { ...open.sender, sender: new (await import('../../src/adapters/webhooks/http-webhook-sender.ts')).HttpWebhookSender({ timeoutMs: 1_000, allowPrivateAddresses: false }) };
    await open.me.grant();

    expect(await deliverDue(strict, LEASE)).toEqual([expect.objectContaining({ status: 'pending' })]);
    expect(open.hook.received).toHaveLength(0);
    const [delivery] = (await open.api.call('GET', `/developers/webhook-endpoints/${open.endpoint.id}/deliveries`, { key: open.me.apiKey })).body.data;
    expect(delivery.lastError).toContain('refused: 127.0.0.1 does not resolve to public addresses only');
  });
});
