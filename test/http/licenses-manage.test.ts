import { describe, expect, test } from 'bun:test';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { expectError } from './fixtures.ts';

const validate = (api: TestApi, key: string, licenseKey: string, machineFingerprint: string) =>
  api.call('POST', '/licenses/validate', { key, body: { licenseKey, machineFingerprint } });

async function bound() {
  const api = testApi();
  const s = await seller(api);
  const { license, licenseKey } = await s.grant();
  await validate(api, s.publishableKey, licenseKey, 'machine-a');
  return { api, s, license, licenseKey };
}

describe('GET /licenses/:id', () => {
  test('the owner’s secret key reads the license: id, productId, customerId, status, features, issuedAt, expiresAt', async () => {
    const { api, s, license } = await bound();
    const reply = await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ...license, machineFingerprint: 'machine-a', licenseKey: expect.any(String) });
  });

  test('status turns expired once the clock passes expiresAt', async () => {
    const api = testApi();
    const s = await seller(api);
    const { license } = await s.grant({ expiresAt: api.clock.now() + 10 });
    api.clock.advance(10);
    expect((await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey })).body.status).toBe('expired');
  });

  test('an unknown license is 404 not_found', async () => {
    const { api, s } = await bound();
    expectError(await api.call('GET', '/licenses/lic_nope', { key: s.apiKey }), 404, 'not_found');
  });
});

describe('POST /licenses/:id/unbind', () => {
  test('with X-API-Key sk: 200, the license unbound; then a new fingerprint binds', async () => {
    const { api, s, license, licenseKey } = await bound();
    const reply = await api.call('POST', `/licenses/${license.id}/unbind`, { key: s.apiKey });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ...license, machineFingerprint: null });
    expect((await validate(api, s.publishableKey, licenseKey, 'machine-b')).body.valid).toBe(true);
    expect((await validate(api, s.publishableKey, licenseKey, 'machine-a')).body).toEqual({ valid: false, reason: 'machine_mismatch' });
    expect((await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey })).body.machineFingerprint).toBe('machine-b');
  });

  test('with Authorization: Bearer sk_… (the spec’s reference example)', async () => {
    const { api, s, license, licenseKey } = await bound();
    const reply = await api.call('POST', `/licenses/${license.id}/unbind`, { headers: { authorization: `Bearer ${s.apiKey}` } });
    expect(reply.status).toBe(200);
    expect(reply.body.machineFingerprint).toBeNull();
    expect((await validate(api, s.publishableKey, licenseKey, 'machine-b')).body.valid).toBe(true);
  });

  test('Bearer with a publishable key is 403 forbidden and keeps the binding', async () => {
    const { api, s, license } = await bound();
    expectError(await api.call('POST', `/licenses/${license.id}/unbind`, { headers: { authorization: `Bearer ${s.publishableKey}` } }), 403, 'forbidden');
    expect((await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey })).body.machineFingerprint).toBe('machine-a');
  });

  test('Bearer with an unknown key is 401 unauthorized', async () => {
    const { api, license } = await bound();
    expectError(await api.call('POST', `/licenses/${license.id}/unbind`, { headers: { authorization: 'Bearer sk_unknownjunk' } }), 401, 'unauthorized');
  });

  test('unbinding an unbound license is fine', async () => {
    const api = testApi();
    const s = await seller(api);
    const { license } = await s.grant();
    const reply = await api.call('POST', `/licenses/${license.id}/unbind`, { key: s.apiKey });
    expect(reply.status).toBe(200);
    expect(reply.body.machineFingerprint).toBeNull();
  });

  test('an unknown license is 404 not_found', async () => {
    const { api, s } = await bound();
    expectError(await api.call('POST', '/licenses/lic_nope/unbind', { key: s.apiKey }), 404, 'not_found');
  });

  test('another developer cannot unbind: 404, binding kept', async () => {
    const { api, s, license } = await bound();
    const other = await seller(api);
    expectError(await api.call('POST', `/licenses/${license.id}/unbind`, { headers: { authorization: `Bearer ${other.apiKey}` } }), 404, 'not_found');
    expect((await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey })).body.machineFingerprint).toBe('machine-a');
  });
});

describe('POST /licenses/:id/revoke', () => {
  test('answers the license with status revoked; validation then says revoked', async () => {
    const { api, s, license, licenseKey } = await bound();
    const reply = await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ...license, status: 'revoked', machineFingerprint: 'machine-a' });
    expect((await validate(api, s.publishableKey, licenseKey, 'machine-a')).body).toEqual({ valid: false, reason: 'revoked' });
    expect((await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey })).body.status).toBe('revoked');
  });

  test('revoking twice is fine: still 200 revoked', async () => {
    const { api, s, license } = await bound();
    await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });
    const again = await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('revoked');
  });

  test('revocation is final: unbinding does not bring the license back', async () => {
    const { api, s, license, licenseKey } = await bound();
    await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });
    await api.call('POST', `/licenses/${license.id}/unbind`, { key: s.apiKey });
    expect((await validate(api, s.publishableKey, licenseKey, 'machine-b')).body).toEqual({ valid: false, reason: 'revoked' });
  });

  test('revoking one license leaves the buyer’s other licenses valid', async () => {
    const { api, s, license } = await bound();
    const second = await s.grant();
    await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });
    expect((await validate(api, s.publishableKey, second.licenseKey, 'machine-z')).body.valid).toBe(true);
  });

  test('an unknown license is 404; another developer’s license is 404 and stays active', async () => {
    const { api, s, license } = await bound();
    const other = await seller(api);
    expectError(await api.call('POST', '/licenses/lic_nope/revoke', { key: s.apiKey }), 404, 'not_found');
    expectError(await api.call('POST', `/licenses/${license.id}/revoke`, { key: other.apiKey }), 404, 'not_found');
    expect((await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey })).body.status).toBe('active');
  });
});
