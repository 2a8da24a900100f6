import { describe, expect, test } from 'bun:test';
import { compactVerify, createLocalJWKSet } from 'jose';
import { seller, testApi } from '../support/http.ts';
import { decodeKey, expectError } from './fixtures.ts';

async function rotated() {
  const api = testApi();
  const s = await seller(api);
  const before = await s.grant();
  const rotation = await api.call('POST', '/developers/signing-keys/rotate', { key: s.apiKey, body: { notBefore: api.clock.now() } });
  return { api, s, before, rotation };
}

describe('POST /developers/signing-keys/rotate', () => {
  test('answers 201 {kid, publicKey, notBefore, status, endorsedBy} with a new kid', async () => {
    const { api, before, rotation } = await rotated();
    expect(rotation.status).toBe(201);
    const previous = decodeKey(before.licenseKey).header.kid;
    expect(rotation.body).toEqual({ kid: expect.any(String), publicKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), notBefore: api.clock.now(), status: 'current', endorsedBy: previous, compromised: [] });
    expect(rotation.body.kid).not.toBe(decodeKey(before.licenseKey).header.kid);
  });

  test('new license keys carry the new kid in their JWS header', async () => {
    const { s, rotation } = await rotated();
    const after = await s.grant();
    expect(decodeKey(after.licenseKey).header.kid).toBe(rotation.body.kid);
  });

  test('keys issued before the rotation still validate online', async () => {
    const { api, s, before } = await rotated();
    const reply = await api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey: before.licenseKey, machineFingerprint: 'm' } });
    expect(reply.body).toEqual({ valid: true, license: { id: before.license.id, status: 'active', features: ['pro'], expiresAt: null } });
  });

  test('keys issued after the rotation validate online', async () => {
    const { api, s } = await rotated();
    const after = await s.grant();
    const reply = await api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey: after.licenseKey, machineFingerprint: 'm' } });
    expect(reply.body.valid).toBe(true);
  });

  test('the JWKS lists the new key first and keeps the old one', async () => {
    const { api, s, before, rotation } = await rotated();
    const jwks = await api.call('GET', `/developers/${s.id}/jwks.json`);
    expect(jwks.body.keys.map((k: { kid: string }) => k.kid)).toEqual([rotation.body.kid, decodeKey(before.licenseKey).header.kid]);
    expect(jwks.body.keys[0].x).toBe(rotation.body.publicKey);
  });

  test('keys from before and after verify with jose using only the JWKS', async () => {
    const { api, s, before } = await rotated();
    const after = await s.grant();
    const jwks = createLocalJWKSet((await api.call('GET', `/developers/${s.id}/jwks.json`)).body);
    for (const { licenseKey, license } of [before, after]) {
      const { payload, protectedHeader } = await compactVerify(licenseKey, jwks);
      expect(protectedHeader.alg).toBe('EdDSA');
      expect(JSON.parse(new TextDecoder().decode(payload)).id).toBe(license.id);
    }
  });

  test('rotating twice keeps every older key verifying', async () => {
    const { api, s, before } = await rotated();
    const middle = await s.grant();
    await api.call('POST', '/developers/signing-keys/rotate', { key: s.apiKey, body: { notBefore: api.clock.now() } });
    const jwks = await api.call('GET', `/developers/${s.id}/jwks.json`);
    expect(jwks.body.keys).toHaveLength(3);
    for (const [i, { licenseKey }] of [before, middle].entries()) {
      const reply = await api.call('POST', '/licenses/validate', { key: s.apiKey, body: { licenseKey, machineFingerprint: `m${i}` } });
      expect(reply.body.valid).toBe(true);
    }
  });

  test('one developer’s rotation leaves another developer’s keys alone', async () => {
    const api = testApi();
    const a = await seller(api);
    const b = await seller(api);
    const jwksBefore = (await api.call('GET', `/developers/${a.id}/jwks.json`)).body;
    await api.call('POST', '/developers/signing-keys/rotate', { key: b.apiKey });
    expect((await api.call('GET', `/developers/${a.id}/jwks.json`)).body).toEqual(jwksBefore);
  });

  test('a publishable key may not rotate: 403 forbidden, nothing rotated', async () => {
    const api = testApi();
    const s = await seller(api);
    expectError(await api.call('POST', '/developers/signing-keys/rotate', { key: s.publishableKey }), 403, 'forbidden');
    expect((await api.call('GET', `/developers/${s.id}/jwks.json`)).body.keys).toHaveLength(1);
  });
});
