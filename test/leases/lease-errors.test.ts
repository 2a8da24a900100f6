import { afterAll, describe, expect, test } from 'bun:test';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { expectError } from '../http/fixtures.ts';
import { seller } from '../support/http.ts';
import { leasing, servedApi } from './support.ts';

const DAY = 86_400_000;
const store = openSqliteStore(':memory:');
const api = servedApi(store);
afterAll(async () => {
  api.stop();
  await store.close();
});

describe('lease terms on products and licenses', () => {
  test('a new product has leases off (maxLeases null), leaseSeconds 600 and no borrowing; PATCH sets them', async () => {
    const s = await seller(api);
    expect(s.product).toMatchObject({ maxLeases: null, leaseSeconds: 600, maxBorrowHours: 0 });
    const changed = await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { maxLeases: 5, leaseSeconds: 60, maxBorrowHours: 72 } });
    expect(changed.body).toMatchObject({ maxLeases: 5, leaseSeconds: 60, maxBorrowHours: 72 });
  });

  test('out of bounds: 400 invalid_request naming the field', async () => {
    const s = await seller(api);
    for (const body of [{ maxLeases: 0 }, { maxLeases: 10_001 }, { maxLeases: 1.5 }, { leaseSeconds: 59 }, { leaseSeconds: null }, { maxBorrowHours: -1 }, { maxBorrowHours: 'x' }]) {
      const reply = await api.call('POST', '/developers/products', { key: s.apiKey, body: { name: 'X', price: 1, currency: 'usd', ...body } });
      expectError(reply, 400, 'invalid_request');
      expect(reply.body.error.details.issues[0].field).toBe(Object.keys(body)[0]);
    }
  });

  test('a license’s own terms override the product’s; 0 turns its leases off; null gives the product’s back', async () => {
    const { s, license, checkout } = await leasing(api, { maxLeases: 1 });
    const set = (body: Record<string, unknown>) => api.call('PUT', `/licenses/${license.id}/lease-terms`, { key: s.apiKey, body: { maxLeases: null, leaseSeconds: null, maxBorrowHours: null, ...body } });
    expect((await set({ maxLeases: 2, leaseSeconds: 90 })).body).toMatchObject({ own: { maxLeases: 2, leaseSeconds: 90 }, effective: { maxLeases: 2, leaseSeconds: 90, maxBorrowHours: 0 } });
    expect((await checkout('a')).body.lease.expiresAt).toBe(api.clock.now() + 90_000);
    expect((await checkout('b')).status).toBe(201);
    await set({ maxLeases: 0 });
    const off = await checkout('c');
    expectError(off, 409, 'conflict');
    expect(off.body.error.details.reason).toBe('leases_off');
    expectError(await set({ maxLeases: -1 }), 400, 'invalid_request');
    expectError(await set({ leaseSeconds: 30 }), 400, 'invalid_request');
    const other = await seller(api);
    expectError(await api.call('PUT', `/licenses/${license.id}/lease-terms`, { key: other.apiKey, body: { maxLeases: 1, leaseSeconds: null, maxBorrowHours: null } }), 404, 'not_found');
    expectError(await api.call('GET', `/licenses/${license.id}/leases`, { key: other.apiKey }), 404, 'not_found');
  });
});

describe('refusals, each a clear JSON error', () => {
  test('leases off for the product: 409 conflict, reason leases_off', async () => {
    const { checkout } = await leasing(api, { maxLeases: null });
    const reply = await checkout('m');
    expectError(reply, 409, 'conflict');
    expect(reply.body.error.details.reason).toBe('leases_off');
  });

  test('an unknown key, another seller’s key, a key of a product not named: 404 not_found', async () => {
    const { checkout, s } = await leasing(api);
    expectError(await checkout('m', { licenseKey: 'not-a-key' }), 404, 'not_found');
    const other = await leasing(api);
    expectError(await api.call('POST', '/licenses/leases', { key: s.publishableKey, body: { licenseKey: other.licenseKey, machineFingerprint: 'm' } }), 404, 'not_found');
    expectError(await checkout('m', { productId: other.s.product.id }), 404, 'not_found');
  });

  test('a revoked or expired license: 409 conflict with the reason, for checkout and heartbeat; release still works', async () => {
    const revoked = await leasing(api);
    const held = await revoked.checkout('m');
    await api.call('POST', `/licenses/${revoked.license.id}/revoke`, { key: revoked.s.apiKey });
    const refused = await revoked.checkout('m');
    expectError(refused, 409, 'conflict');
    expect(refused.body.error.details.reason).toBe('revoked');
    expect((await revoked.heartbeat(held.body.lease.id)).body.error.details.reason).toBe('revoked');
    expect((await revoked.release(held.body.lease.id)).body.released).toBe(true);

    const s = await seller(api);
    await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { maxLeases: 2 } });
    const { licenseKey } = await s.grant({ expiresAt: api.clock.now() + DAY });
    api.clock.advance(DAY);
    const expired = await api.call('POST', '/licenses/leases', { key: s.publishableKey, body: { licenseKey, machineFingerprint: 'm' } });
    expectError(expired, 409, 'conflict');
    expect(expired.body.error.details.reason).toBe('expired');
  });

  test('a lease never outlives its license', async () => {
    const s = await seller(api);
    await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { maxLeases: 2 } });
    const end = api.clock.now() + 30_000;
    const { licenseKey } = await s.grant({ expiresAt: end });
    const reply = await api.call('POST', '/licenses/leases', { key: s.publishableKey, body: { licenseKey, machineFingerprint: 'm' } });
    expect(reply.body.lease.expiresAt).toBe(end);
  });

  test('another license’s lease id: heartbeat 404, release changes nothing (released false); forged ids: 400', async () => {
    const mine = await leasing(api);
    const theirs = await leasing(api);
    const their = await theirs.checkout('t');
    expectError(await mine.heartbeat(their.body.lease.id), 404, 'not_found');
    expect((await mine.release(their.body.lease.id)).body.released).toBe(false);
    expect((await theirs.heartbeat(their.body.lease.id)).status).toBe(200);
    expectError(await mine.heartbeat('lease_doesNotExist123'), 404, 'not_found');
    for (const forged of ['act_123', 'lease_', 'lease_a-b', `lease_${'a'.repeat(65)}`, '..%2Flease_x', 'lease_%00']) {
      expectError(await mine.heartbeat(forged), 400, 'invalid_request');
      expectError(await mine.release(forged), 400, 'invalid_request');
    }
  });

  test('NUL bytes and bad fields: 400 invalid_request, never a 500', async () => {
    const { checkout, heartbeat, release, s } = await leasing(api);
    const held = await checkout('m');
    expectError(await checkout('m\u0000x'), 400, 'invalid_request');
    expectError(await checkout(''), 400, 'invalid_request');
    expectError(await checkout('m', { productId: 'prod_\u0000' }), 400, 'invalid_request');
    expectError(await checkout('m', { borrowHours: 0 }), 400, 'invalid_request');
    expectError(await checkout('m', { licenseKey: 'a\u0000b' }), 400, 'invalid_request');
    expectError(await heartbeat(held.body.lease.id, 'a\u0000b'), 400, 'invalid_request');
    expectError(await release(held.body.lease.id, 'a\u0000b'), 400, 'invalid_request');
    expect((await heartbeat(held.body.lease.id)).status).toBe(200);
    expectError(await api.call('POST', '/licenses/leases', { key: s.publishableKey, rawBody: '{"licenseKey":' }), 400, 'invalid_request');
    expectError(await api.call('POST', '/licenses/leases', { body: { licenseKey: 'x', machineFingerprint: 'm' } }), 401, 'unauthorized');
  });

  test('checkouts are rate-limited per license: 429 rate_limited with Retry-After', async () => {
    const { checkout } = await leasing(api, { maxLeases: 1 });
    const replies = [];
    for (let i = 0; i < 125; i++) replies.push(await checkout('same'));
    const limited = replies.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.body.error.code).toBe('rate_limited');
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('signed answers and borrowing', () => {
  test('a checkout with a Licensing-Nonce is signed (op lease, this machine)', async () => {
    const { s, licenseKey } = await leasing(api);
    const reply = await fetch(`${api.url}/v1/licenses/leases`, {
      method: 'POST',
      headers: { 'x-api-key': s.publishableKey, 'licensing-nonce': 'n0nce-0123456789abcdef', 'content-type': 'application/json' },
      body: JSON.stringify({ licenseKey, machineFingerprint: 'm' }),
    });
    const signature = reply.headers.get('licensing-signature')!;
    const header = JSON.parse(Buffer.from(signature.split('.')[0]!, 'base64url').toString());
    expect(header).toMatchObject({ op: 'lease', nonce: 'n0nce-0123456789abcdef', machineFingerprint: 'm', typ: 'licensing-answer+jws' });
  });

  test('borrowing: up to maxBorrowHours, with a signed token; a longer one is refused', async () => {
    const { checkout, heartbeat } = await leasing(api, { maxLeases: 2, maxBorrowHours: 48 });
    const borrowed = await checkout('laptop', { borrowHours: 48 });
    expect(borrowed.status).toBe(201);
    expect(borrowed.body.lease.expiresAt).toBe(api.clock.now() + 48 * 3_600_000);
    const payload = JSON.parse(Buffer.from(borrowed.body.token.split('.')[1], 'base64url').toString());
    expect(payload.lease).toMatchObject({ id: borrowed.body.lease.id, machineFingerprint: 'laptop', borrowed: true, expiresAt: borrowed.body.lease.expiresAt });
    expect((await heartbeat(borrowed.body.lease.id)).body.lease.expiresAt).toBe(borrowed.body.lease.expiresAt);
    const tooLong = await checkout('other', { borrowHours: 49 });
    expectError(tooLong, 409, 'conflict');
    expect(tooLong.body.error.details).toEqual({ reason: 'borrow_refused', maxBorrowHours: 48 });
  });
});
