import { describe, expect, test } from 'bun:test';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { signAsDeveloper, signWithUnknownKey } from './fixtures.ts';

const validate = (api: TestApi, key: string, licenseKey: string, machineFingerprint = 'machine-a') =>
  api.call('POST', '/licenses/validate', { key, body: { licenseKey, machineFingerprint } });

async function licensed(body: Record<string, unknown> = {}) {
  const api = testApi();
  const s = await seller(api);
  const { license, licenseKey } = await s.grant(body);
  return { api, s, license, licenseKey };
}

/** Flips one character of a base64url segment, keeping it decodable. */
function flip(segment: string, at = 5): string {
  const c = segment[at]!;
  return segment.slice(0, at) + (c === 'A' ? 'B' : 'A') + segment.slice(at + 1);
}

describe('POST /licenses/validate: valid', () => {
  test('a valid key answers 200 {valid: true, license: {id, status, features, expiresAt}}', async () => {
    const { api, s, license, licenseKey } = await licensed();
    const reply = await validate(api, s.publishableKey, licenseKey);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ valid: true, license: { id: license.id, status: 'active', features: ['pro'], expiresAt: null } });
  });

  test('the secret key may validate too', async () => {
    const { api, s, licenseKey } = await licensed();
    expect((await validate(api, s.apiKey, licenseKey)).body.valid).toBe(true);
  });

  test('the first validation binds the machine; the same machine stays valid', async () => {
    const { api, s, license, licenseKey } = await licensed();
    await validate(api, s.publishableKey, licenseKey, 'machine-a');
    expect((await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey })).body.machineFingerprint).toBe('machine-a');
    expect((await validate(api, s.publishableKey, licenseKey, 'machine-a')).body.valid).toBe(true);
  });

  test('a license is valid until the millisecond before expiresAt', async () => {
    const { api, s, licenseKey, license } = await licensed({ expiresAt: Date.UTC(2026, 0, 2) });
    api.clock.time = license.expiresAt - 1;
    expect((await validate(api, s.publishableKey, licenseKey)).body).toEqual({
      valid: true, license: { id: license.id, status: 'active', features: ['pro'], expiresAt: license.expiresAt },
    });
  });
});

describe('POST /licenses/validate: every reason', () => {
  test('invalid_format: not a JWS at all', async () => {
    const { api, s } = await licensed();
    for (const junk of ['', 'abc', 'a.b', 'a.b.c.d', '!!!.???.***', 'eyJ.eyJ.sig']) {
      expect((await validate(api, s.publishableKey, junk)).body).toEqual({ valid: false, reason: 'invalid_format' });
    }
  });

  test('invalid_signature: a tampered payload', async () => {
    const { api, s, licenseKey } = await licensed();
    const [h, p, sig] = licenseKey.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, features: ['pro', 'enterprise'] })).toString('base64url');
    expect((await validate(api, s.publishableKey, `${h}.${forged}.${sig}`)).body).toEqual({ valid: false, reason: 'invalid_signature' });
  });

  test('invalid_signature: a tampered signature', async () => {
    const { api, s, licenseKey } = await licensed();
    const [h, p, sig] = licenseKey.split('.') as [string, string, string];
    expect((await validate(api, s.publishableKey, `${h}.${p}.${flip(sig)}`)).body).toEqual({ valid: false, reason: 'invalid_signature' });
  });

  test('invalid_signature: signed by a key whose kid the service does not know', async () => {
    const { api, s, license } = await licensed();
    const forged = signWithUnknownKey(s.id, { id: license.id, productId: license.productId, features: ['pro'], issuedAt: license.issuedAt });
    expect((await validate(api, s.publishableKey, forged)).body).toEqual({ valid: false, reason: 'invalid_signature' });
  });

  test('invalid_signature: a forged key reusing my real kid', async () => {
    const { api, s, licenseKey, license } = await licensed();
    const kid = JSON.parse(Buffer.from(licenseKey.split('.')[0]!, 'base64url').toString()).kid;
    const forged = signWithUnknownKey(s.id, { id: license.id, productId: license.productId }, kid);
    expect((await validate(api, s.publishableKey, forged)).body).toEqual({ valid: false, reason: 'invalid_signature' });
  });

  test('not_found: another developer’s license validated with my key', async () => {
    const { api, licenseKey } = await licensed();
    const me = await seller(api);
    expect((await validate(api, me.publishableKey, licenseKey)).body).toEqual({ valid: false, reason: 'not_found' });
  });

  test('not_found: a well-signed key whose license id does not exist', async () => {
    const { api, s } = await licensed();
    const key = await signAsDeveloper(api, s.id, { id: 'lic_neverIssued0000000000', productId: s.product.id });
    expect((await validate(api, s.publishableKey, key)).body).toEqual({ valid: false, reason: 'not_found' });
  });

  test('not_found: another developer signs claims naming my license', async () => {
    const { api, s, license } = await licensed();
    const mallory = await seller(api);
    const key = await signAsDeveloper(api, mallory.id, { sub: s.id, id: license.id, productId: license.productId });
    expect((await validate(api, s.publishableKey, key)).body).toEqual({ valid: false, reason: 'not_found' });
  });

  test('another key genuinely signed by the owner for a real license is judged on the stored license', async () => {
    const { api, s, license, licenseKey } = await licensed();
    const key = await signAsDeveloper(api, s.id, { id: license.id, productId: license.productId, features: ['pro'], issuedAt: license.issuedAt + 1 });
    expect(key).not.toBe(licenseKey);
    // Not the license's current key: the answer hands the current one over (docs/renewals.md).
    expect((await validate(api, s.publishableKey, key)).body).toEqual({ valid: true, license: { id: license.id, status: 'active', features: ['pro'], expiresAt: null, licenseKey } });
  });

  test('revoked: after POST /licenses/:id/revoke', async () => {
    const { api, s, license, licenseKey } = await licensed();
    await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });
    expect((await validate(api, s.publishableKey, licenseKey)).body).toEqual({ valid: false, reason: 'revoked' });
  });

  test('expired: exactly at expiresAt', async () => {
    const { api, s, licenseKey } = await licensed({ expiresAt: Date.UTC(2026, 0, 1) + 1_000 });
    api.clock.advance(1_000);
    expect((await validate(api, s.publishableKey, licenseKey)).body).toEqual({ valid: false, reason: 'expired' });
  });

  test('expired: a product term runs out after licenseDays', async () => {
    const api = testApi();
    const s = await seller(api);
    await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { licenseDays: 1 } });
    const { licenseKey } = await s.grant();
    api.clock.advance(86_400_000 - 1);
    expect((await validate(api, s.publishableKey, licenseKey)).body.valid).toBe(true);
    api.clock.advance(1);
    expect((await validate(api, s.publishableKey, licenseKey)).body).toEqual({ valid: false, reason: 'expired' });
  });

  test('machine_mismatch: a second machine after the first bound', async () => {
    const { api, s, licenseKey } = await licensed();
    await validate(api, s.publishableKey, licenseKey, 'machine-a');
    expect((await validate(api, s.publishableKey, licenseKey, 'machine-b')).body).toEqual({ valid: false, reason: 'machine_mismatch' });
  });
});

describe('POST /licenses/validate: precedence', () => {
  test('revoked beats machine_mismatch', async () => {
    const { api, s, license, licenseKey } = await licensed();
    await validate(api, s.publishableKey, licenseKey, 'machine-a');
    await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });
    expect((await validate(api, s.publishableKey, licenseKey, 'machine-b')).body).toEqual({ valid: false, reason: 'revoked' });
  });

  test('expired beats machine_mismatch', async () => {
    const { api, s, licenseKey } = await licensed({ expiresAt: Date.UTC(2026, 0, 2) });
    await validate(api, s.publishableKey, licenseKey, 'machine-a');
    api.clock.time = Date.UTC(2026, 0, 2);
    expect((await validate(api, s.publishableKey, licenseKey, 'machine-b')).body).toEqual({ valid: false, reason: 'expired' });
  });

  test('revoked beats expired', async () => {
    const { api, s, license, licenseKey } = await licensed({ expiresAt: Date.UTC(2026, 0, 2) });
    await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });
    api.clock.time = Date.UTC(2026, 0, 3);
    expect((await validate(api, s.publishableKey, licenseKey)).body).toEqual({ valid: false, reason: 'revoked' });
  });

  test('an invalid validation binds nothing: an expired license stays unbound', async () => {
    const { api, s, license, licenseKey } = await licensed({ expiresAt: Date.UTC(2026, 0, 2) });
    api.clock.time = Date.UTC(2026, 0, 2);
    await validate(api, s.publishableKey, licenseKey, 'machine-a');
    expect((await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey })).body).toMatchObject({ status: 'expired', machineFingerprint: null });
  });
});
