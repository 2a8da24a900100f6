import { describe, expect, test } from 'bun:test';
import * as jose from 'jose';
import { seller, testApi, type TestApi } from '../support/http.ts';

/** The one thing an offline verifier gets from the service: the public JWK Set, fetched without credentials. */
async function jwksOf(api: TestApi, developerId: string) {
  const reply = await api.call('GET', `/developers/${developerId}/jwks.json`);
  expect(reply.status).toBe(200);
  return jose.createLocalJWKSet(reply.body);
}

/** A second later each time: keys made in the same millisecond have no defined order (see report). */
async function rotate(api: TestApi, apiKey: string): Promise<string> {
  api.clock.advance(1000);
  const reply = await api.call('POST', '/developers/signing-keys/rotate', { key: apiKey, body: { notBefore: api.clock.now() } });
  expect(reply.status).toBeLessThan(300);
  return reply.body.kid;
}

describe('license keys verify with an independent JOSE library (jose) using only the JWKS', () => {
  test('a granted key verifies with jose.compactVerify and carries the contract claims', async () => {
    const api = testApi();
    const s = await seller(api);
    const { license, licenseKey } = await s.grant();

    const { payload, protectedHeader } = await jose.compactVerify(licenseKey, await jwksOf(api, s.id), { algorithms: ['EdDSA'] });

    expect(protectedHeader.alg).toBe('EdDSA');
    expect(typeof protectedHeader.kid).toBe('string');
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({
      iss: 'http://127.0.0.1:3000',
      sub: s.id,
      id: license.id,
      productId: s.product.id,
      features: license.features,
      issuedAt: license.issuedAt,
      expiresAt: license.expiresAt,
    });
  });

  test('a granted key verifies with jose.jwtVerify, issuer and subject checked', async () => {
    const api = testApi();
    const s = await seller(api);
    const { license, licenseKey } = await s.grant();

    const { payload } = await jose.jwtVerify(licenseKey, await jwksOf(api, s.id), {
      algorithms: ['EdDSA'],
      issuer: 'http://127.0.0.1:3000',
      subject: s.id,
    });

    expect(payload.id).toBe(license.id);
  });

  test('the JWKS publishes OKP / Ed25519 keys with kid, and nothing private', async () => {
    const api = testApi();
    const s = await seller(api);
    const reply = await api.call('GET', `/developers/${s.id}/jwks.json`);
    expect(reply.body.keys).toHaveLength(1);
    const [jwk] = reply.body.keys;
    expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
    expect(typeof jwk.kid).toBe('string');
    expect(Buffer.from(jwk.x, 'base64url').length).toBe(32);
    expect(jwk).not.toHaveProperty('d');
  });

  test('a key with a tampered payload fails jose verification', async () => {
    const api = testApi();
    const s = await seller(api);
    const { licenseKey } = await s.grant();
    const [h, p, sig] = licenseKey.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, features: ['everything'] })).toString('base64url')}.${sig}`;

    await expect(jose.compactVerify(forged, await jwksOf(api, s.id))).rejects.toThrow();
  });

  test('another developer’s JWKS does not verify the key', async () => {
    const api = testApi();
    const alice = await seller(api);
    const bob = await seller(api);
    const { licenseKey } = await alice.grant();

    await expect(jose.compactVerify(licenseKey, await jwksOf(api, bob.id))).rejects.toThrow();
  });
});

describe('after a signing-key rotation', () => {
  test('new licenses carry the new kid', async () => {
    const api = testApi();
    const s = await seller(api);
    const before = jose.decodeProtectedHeader((await s.grant()).licenseKey).kid;

    const newKid = await rotate(api, s.apiKey);
    const after = jose.decodeProtectedHeader((await s.grant()).licenseKey).kid;

    expect(after).toBe(newKid);
    expect(after).not.toBe(before);
  });

  test('keys signed before and after both verify with jose from the JWKS fetched after rotation', async () => {
    const api = testApi();
    const s = await seller(api);
    const old = await s.grant();
    await rotate(api, s.apiKey);
    const fresh = await s.grant();

    const jwks = await jwksOf(api, s.id);

    const a = await jose.compactVerify(old.licenseKey, jwks, { algorithms: ['EdDSA'] });
    const b = await jose.compactVerify(fresh.licenseKey, jwks, { algorithms: ['EdDSA'] });
    expect(a.protectedHeader.kid).not.toBe(b.protectedHeader.kid);
  });

  test('the JWKS lists both keys, the newest first', async () => {
    const api = testApi();
    const s = await seller(api);
    const newKid = await rotate(api, s.apiKey);

    const reply = await api.call('GET', `/developers/${s.id}/jwks.json`);

    expect(reply.body.keys).toHaveLength(2);
    expect(reply.body.keys[0].kid).toBe(newKid);
  });

  test('the old kid still verifies after two rotations', async () => {
    const api = testApi();
    const s = await seller(api);
    const oldest = await s.grant();
    await rotate(api, s.apiKey);
    await rotate(api, s.apiKey);

    const { payload } = await jose.compactVerify(oldest.licenseKey, await jwksOf(api, s.id), { algorithms: ['EdDSA'] });

    expect(JSON.parse(new TextDecoder().decode(payload)).id).toBe(oldest.license.id);
  });
});
