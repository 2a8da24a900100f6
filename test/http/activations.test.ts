import { describe, expect, test } from 'bun:test';
import { DEACTIVATION_WINDOW_MS } from '../../src/domain/activation.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { expectError } from './fixtures.ts';

const DAY = 86_400_000;

/** A seller whose product allows `maxMachines` machines, and one granted license of it. */
async function licensed(productFields: Record<string, unknown> = {}) {
  const api = testApi();
  const s = await seller(api);
  const changed = await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: productFields });
  if (Object.keys(productFields).length && changed.status !== 200) throw new Error(JSON.stringify(changed.body));
  const { license, licenseKey } = await s.grant();
  return { api, s, license, licenseKey };
}

const validate = (api: TestApi, key: string, licenseKey: string, machineFingerprint: string) =>
  api.call('POST', '/licenses/validate', { key, body: { licenseKey, machineFingerprint } });
const activate = (api: TestApi, key: string, body: Record<string, unknown>) => api.call('POST', '/licenses/activate', { key, body });
const deactivate = (api: TestApi, key: string, licenseKey: string, machineFingerprint: string) =>
  api.call('POST', '/licenses/deactivate', { key, body: { licenseKey, machineFingerprint } });

describe('products: maxMachines and deactivationsPer30Days', () => {
  test('default to 1 and 3, are shown, and can be changed (null = unlimited)', async () => {
    const api = testApi();
    const s = await seller(api);
    expect(s.product).toMatchObject({ maxMachines: 1, deactivationsPer30Days: 3 });
    const changed = await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { maxMachines: null, deactivationsPer30Days: 0 } });
    expect(changed.body).toMatchObject({ maxMachines: null, deactivationsPer30Days: 0 });
  });

  test('out of range: 400 naming the field', async () => {
    const api = testApi();
    const s = await seller(api);
    for (const body of [{ maxMachines: 0 }, { maxMachines: 1001 }, { maxMachines: 1.5 }, { maxMachines: '2' }, { deactivationsPer30Days: -1 }, { deactivationsPer30Days: null }]) {
      const reply = await api.call('POST', '/developers/products', { key: s.apiKey, body: { name: 'X', price: 1, currency: 'usd', ...body } });
      expectError(reply, 400, 'invalid_request');
      expect(reply.body.error.details.issues[0].field).toBe(Object.keys(body)[0]);
    }
  });

  test('a license copies the product’s maxMachines when issued; later product changes do not reach it', async () => {
    const { api, s, license } = await licensed({ maxMachines: 2 });
    await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { maxMachines: 5 } });
    expect((await api.call('GET', `/licenses/${license.id}/activations`, { key: s.apiKey })).body).toEqual({ licenseId: license.id, maxMachines: 2, data: [] });
  });
});

describe('POST /licenses/validate with N machines', () => {
  test('each new fingerprint takes a free slot; the N+1th is machine_mismatch; a known one never takes a second slot', async () => {
    const { api, s, license, licenseKey } = await licensed({ maxMachines: 2 });
    for (const fp of ['m-1', 'm-2', 'm-1', 'm-2']) {
      expect((await validate(api, s.publishableKey, licenseKey, fp)).body.valid).toBe(true);
      api.clock.advance(1);
    }
    expect((await validate(api, s.publishableKey, licenseKey, 'm-3')).body).toEqual({ valid: false, reason: 'machine_mismatch' });
    const list = (await api.call('GET', `/licenses/${license.id}/activations`, { key: s.apiKey })).body;
    expect(list.data.map((a: { machineFingerprint: string }) => a.machineFingerprint)).toEqual(['m-1', 'm-2']);
  });

  test('lastSeenAt moves on validation at most once an hour', async () => {
    const { api, s, license, licenseKey } = await licensed();
    const t0 = api.clock.now();
    await validate(api, s.publishableKey, licenseKey, 'm-1');
    api.clock.advance(59 * 60_000);
    await validate(api, s.publishableKey, licenseKey, 'm-1');
    const seen = async () => (await api.call('GET', `/licenses/${license.id}/activations`, { key: s.apiKey })).body.data[0].lastSeenAt;
    expect(await seen()).toBe(t0);
    api.clock.advance(60_000);
    await validate(api, s.publishableKey, licenseKey, 'm-1');
    expect(await seen()).toBe(t0 + 60 * 60_000);
  });

  test('unlimited (null): any number of machines', async () => {
    const { api, s, licenseKey } = await licensed({ maxMachines: null });
    for (let i = 0; i < 12; i++) expect((await validate(api, s.publishableKey, licenseKey, `m-${i}`)).body.valid).toBe(true);
  });
});

describe('POST /licenses/activate', () => {
  test('201 with the activation; the same fingerprint again: 200 with the same one (idempotent)', async () => {
    const { api, s, licenseKey } = await licensed({ maxMachines: 2 });
    const first = await activate(api, s.publishableKey, { licenseKey, machineFingerprint: 'm-1', name: 'ada-laptop' });
    expect(first.status).toBe(201);
    expect(first.body.activation).toEqual({ id: expect.stringMatching(/^act_/), name: 'ada-laptop', machineFingerprint: 'm-1', createdAt: api.clock.now(), lastSeenAt: api.clock.now() });
    const again = await activate(api, s.publishableKey, { licenseKey, machineFingerprint: 'm-1' });
    expect(again.status).toBe(200);
    expect(again.body.activation).toEqual(first.body.activation);
    expect((await validate(api, s.publishableKey, licenseKey, 'm-1')).body.valid).toBe(true);
  });

  test('full: 409 activation_limit listing the current activations’ ids and names', async () => {
    const { api, s, licenseKey } = await licensed({ maxMachines: 2 });
    const a = (await activate(api, s.publishableKey, { licenseKey, machineFingerprint: 'm-1', name: 'one' })).body.activation;
    api.clock.advance(1); // oldest first: createdAt, then id
    const b = (await activate(api, s.publishableKey, { licenseKey, machineFingerprint: 'm-2' })).body.activation;
    const full = await activate(api, s.publishableKey, { licenseKey, machineFingerprint: 'm-3' });
    expectError(full, 409, 'activation_limit');
    expect(full.body.error.details).toEqual({ maxMachines: 2, activations: [{ id: a.id, name: 'one' }, { id: b.id, name: null }] });
  });

  test('an unknown key or another seller’s: 404; revoked or expired: 409 conflict with the reason', async () => {
    const { api, s, license, licenseKey } = await licensed();
    const other = await seller(api);
    expectError(await activate(api, other.publishableKey, { licenseKey, machineFingerprint: 'm-1' }), 404, 'not_found');
    expectError(await activate(api, s.publishableKey, { licenseKey: 'not.a.key', machineFingerprint: 'm-1' }), 404, 'not_found');
    const expiring = await s.grant({ expiresAt: api.clock.now() + DAY });
    api.clock.advance(DAY);
    const expired = await activate(api, s.publishableKey, { licenseKey: expiring.licenseKey, machineFingerprint: 'm-1' });
    expectError(expired, 409, 'conflict');
    expect(expired.body.error.details).toEqual({ reason: 'expired' });
    await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });
    const revoked = await activate(api, s.publishableKey, { licenseKey, machineFingerprint: 'm-1' });
    expect(revoked.body.error.details).toEqual({ reason: 'revoked' });
  });

  test('a name over 100 characters or with control characters: 400', async () => {
    const { api, s, licenseKey } = await licensed();
    for (const name of ['x'.repeat(101), 'a\nb', '']) {
      expectError(await activate(api, s.publishableKey, { licenseKey, machineFingerprint: 'm-1', name }), 400, 'invalid_request');
    }
  });
});

describe('POST /licenses/deactivate: the holder’s quota', () => {
  test('frees the slot for another machine; an unknown fingerprint is 404', async () => {
    const { api, s, licenseKey } = await licensed();
    await validate(api, s.publishableKey, licenseKey, 'old');
    const reply = await deactivate(api, s.publishableKey, licenseKey, 'old');
    expect(reply.status).toBe(200);
    expect(reply.body.activation.machineFingerprint).toBe('old');
    expect((await validate(api, s.publishableKey, licenseKey, 'new')).body.valid).toBe(true);
    expectError(await deactivate(api, s.publishableKey, licenseKey, 'never-seen'), 404, 'not_found');
  });

  test('K deactivations in 30 days; the K+1th is 429 with Retry-After until the oldest leaves the window, which rolls', async () => {
    const { api, s, licenseKey } = await licensed({ deactivationsPer30Days: 3 });
    const start = api.clock.now();
    for (let i = 0; i < 3; i++) {
      await activate(api, s.publishableKey, { licenseKey, machineFingerprint: `m-${i}` });
      expect((await deactivate(api, s.publishableKey, licenseKey, `m-${i}`)).status).toBe(200);
      api.clock.advance(DAY);
    }
    await activate(api, s.publishableKey, { licenseKey, machineFingerprint: 'm-3' });
    const refused = await deactivate(api, s.publishableKey, licenseKey, 'm-3');
    expectError(refused, 429, 'rate_limited');
    // The first one (at start) leaves the window at start + 30 days; it is now start + 3 days.
    expect(refused.headers.get('retry-after')).toBe(String((start + DEACTIVATION_WINDOW_MS - api.clock.now()) / 1000));
    expect(refused.body.error.message).toContain('seller');
    api.clock.advance(start + DEACTIVATION_WINDOW_MS - api.clock.now() - 1);
    expectError(await deactivate(api, s.publishableKey, licenseKey, 'm-3'), 429, 'rate_limited');
    api.clock.advance(1);
    expect((await deactivate(api, s.publishableKey, licenseKey, 'm-3')).status).toBe(200);
  });

  test('the seller’s removals and unbind are not counted; a product with 0 lets only the seller remove (403)', async () => {
    const { api, s, license, licenseKey } = await licensed({ deactivationsPer30Days: 1, maxMachines: 3 });
    for (const fp of ['a', 'b', 'c']) await activate(api, s.publishableKey, { licenseKey, machineFingerprint: fp });
    const list = (await api.call('GET', `/licenses/${license.id}/activations`, { key: s.apiKey })).body;
    expect((await api.call('DELETE', `/licenses/${license.id}/activations/${list.data[0].id}`, { key: s.apiKey })).body.data).toHaveLength(2);
    await api.call('POST', `/licenses/${license.id}/unbind`, { key: s.apiKey });
    await activate(api, s.publishableKey, { licenseKey, machineFingerprint: 'a' });
    expect((await deactivate(api, s.publishableKey, licenseKey, 'a')).status).toBe(200);
    await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { deactivationsPer30Days: 0 } });
    await activate(api, s.publishableKey, { licenseKey, machineFingerprint: 'b' });
    expectError(await deactivate(api, s.publishableKey, licenseKey, 'b'), 403, 'forbidden');
  });
});

describe('seller routes', () => {
  test('GET activations lists them; DELETE one frees its slot; unknown activation: 404', async () => {
    const { api, s, license, licenseKey } = await licensed();
    await validate(api, s.publishableKey, licenseKey, 'm-1');
    const list = (await api.call('GET', `/licenses/${license.id}/activations`, { key: s.apiKey })).body;
    expect(list).toEqual({ licenseId: license.id, maxMachines: 1, data: [{ id: expect.stringMatching(/^act_/), name: null, machineFingerprint: 'm-1', createdAt: api.clock.now(), lastSeenAt: api.clock.now() }] });
    const removed = await api.call('DELETE', `/licenses/${license.id}/activations/${list.data[0].id}`, { key: s.apiKey });
    expect(removed.body.data).toEqual([]);
    expect((await validate(api, s.publishableKey, licenseKey, 'm-2')).body.valid).toBe(true);
    expectError(await api.call('DELETE', `/licenses/${license.id}/activations/${list.data[0].id}`, { key: s.apiKey }), 404, 'not_found');
  });

  test('PATCH maxMachines: lowered below the count keeps every machine, takes no new one until enough are removed', async () => {
    const { api, s, license, licenseKey } = await licensed({ maxMachines: 3 });
    for (const fp of ['a', 'b', 'c']) await validate(api, s.publishableKey, licenseKey, fp);
    const patched = await api.call('PATCH', `/licenses/${license.id}`, { key: s.apiKey, body: { maxMachines: 1 } });
    expect(patched.status).toBe(200);
    expect(patched.body.maxMachines).toBe(1);
    for (const fp of ['a', 'b', 'c']) expect((await validate(api, s.publishableKey, licenseKey, fp)).body.valid).toBe(true);
    expect((await validate(api, s.publishableKey, licenseKey, 'd')).body.reason).toBe('machine_mismatch');
    await deactivate(api, s.publishableKey, licenseKey, 'a');
    await deactivate(api, s.publishableKey, licenseKey, 'b');
    expect((await validate(api, s.publishableKey, licenseKey, 'd')).body.reason).toBe('machine_mismatch');
    await deactivate(api, s.publishableKey, licenseKey, 'c');
    expect((await validate(api, s.publishableKey, licenseKey, 'd')).body.valid).toBe(true);
    expectError(await api.call('PATCH', `/licenses/${license.id}`, { key: s.apiKey, body: { maxMachines: 0 } }), 400, 'invalid_request');
    expectError(await api.call('PATCH', `/licenses/${license.id}`, { key: s.apiKey, body: {} }), 400, 'invalid_request');
  });

  test('unbind removes every activation', async () => {
    const { api, s, license, licenseKey } = await licensed({ maxMachines: 2 });
    for (const fp of ['a', 'b']) await validate(api, s.publishableKey, licenseKey, fp);
    await api.call('POST', `/licenses/${license.id}/unbind`, { key: s.apiKey });
    expect((await api.call('GET', `/licenses/${license.id}/activations`, { key: s.apiKey })).body.data).toEqual([]);
  });
});
