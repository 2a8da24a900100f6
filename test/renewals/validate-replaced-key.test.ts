import { describe, expect, test } from 'bun:test';
import { createLocalJWKSet, flattenedVerify } from 'jose';
import { getSchemaValidator } from 'elysia';
import { ValidationResult } from '../../src/adapters/http/routes/licenses/schemas.ts';
import { renewLicense } from '../../src/app/licenses/reissue-license.ts';
import { seller, type TestApi } from '../support/http.ts';
import { DAY, renewable } from './support.ts';

const validate = (api: TestApi, key: string, licenseKey: string, machineFingerprint = 'machine-a') =>
  api.call('POST', '/licenses/validate', { key, body: { licenseKey, machineFingerprint }, headers: { 'licensing-nonce': 'n0nce_0123456789abcdef' } });

describe('POST /licenses/validate with a key a renewal replaced', () => {
  test('the old key is valid, with the new expiry, and the answer hands over the current key', async () => {
    const { api, s, license, licenseKey } = await renewable();
    const renewed = await renewLicense(api.deps, license.id, license.expiresAt + 30 * DAY);

    const reply = await validate(api, s.publishableKey, licenseKey);

    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      valid: true,
      license: { id: license.id, status: 'active', features: ['pro'], expiresAt: renewed.expiresAt, licenseKey: renewed.licenseKey },
    });
    expect(getSchemaValidator(ValidationResult)!.Check(reply.body)).toBe(true);
  });

  test('the current key gets no licenseKey: the answer for a current key is unchanged', async () => {
    const { api, s, license } = await renewable();
    const renewed = await renewLicense(api.deps, license.id, license.expiresAt + 30 * DAY);

    const reply = await validate(api, s.publishableKey, renewed.licenseKey);

    expect(reply.body).toEqual({ valid: true, license: { id: license.id, status: 'active', features: ['pro'], expiresAt: renewed.expiresAt } });
  });

  test('an old key past its own expiry is still valid while the license is renewed', async () => {
    const { api, s, license, licenseKey } = await renewable();
    const renewed = await renewLicense(api.deps, license.id, license.expiresAt + 30 * DAY);
    api.clock.advance(31 * DAY);

    const reply = await validate(api, s.publishableKey, licenseKey);

    expect(reply.body.valid).toBe(true);
    expect(reply.body.license.licenseKey).toBe(renewed.licenseKey);
  });

  test('the key two renewals ago still leads to the current key', async () => {
    const { api, s, license, licenseKey } = await renewable();
    await renewLicense(api.deps, license.id, license.expiresAt + 30 * DAY);
    const latest = await renewLicense(api.deps, license.id, license.expiresAt + 60 * DAY);

    expect((await validate(api, s.publishableKey, licenseKey)).body.license.licenseKey).toBe(latest.licenseKey);
  });

  test('the current key is inside the signed body', async () => {
    const { api, s, license, licenseKey } = await renewable();
    const renewed = await renewLicense(api.deps, license.id, license.expiresAt + 30 * DAY);

    const response = await api.app.handle(
      new Request('http://localhost/v1/licenses/validate', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': s.publishableKey, 'licensing-nonce': 'n0nce_0123456789abcdef' },
        body: JSON.stringify({ licenseKey, machineFingerprint: 'machine-a' }),
      }),
    );
    const text = await response.text();
    const [protectedHeader, , signature] = response.headers.get('licensing-signature')!.split('.');
    const jwks = (await api.call('GET', `/developers/${s.id}/jwks.json`)).body;

    const verified = await flattenedVerify({ protected: protectedHeader!, payload: Buffer.from(text).toString('base64url'), signature: signature! }, createLocalJWKSet(jwks));

    expect(JSON.parse(new TextDecoder().decode(verified.payload)).license.licenseKey).toBe(renewed.licenseKey);
  });

  test('a revoked license answers revoked to the old key too, and hands over nothing', async () => {
    const { api, s, license, licenseKey } = await renewable();
    await renewLicense(api.deps, license.id, license.expiresAt + 30 * DAY);
    await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });

    expect((await validate(api, s.publishableKey, licenseKey)).body).toEqual({ valid: false, reason: 'revoked' });
  });

  test('an old key on another machine than its slot answers machine_mismatch without the new key', async () => {
    const { api, s, license, licenseKey } = await renewable();
    await validate(api, s.publishableKey, licenseKey, 'machine-a');
    await renewLicense(api.deps, license.id, license.expiresAt + 30 * DAY);

    expect((await validate(api, s.publishableKey, licenseKey, 'machine-b')).body).toEqual({ valid: false, reason: 'machine_mismatch' });
  });

  test('another seller’s API key learns nothing from an old key: not_found', async () => {
    const { api, license, licenseKey } = await renewable();
    const other = await seller(api);
    await renewLicense(api.deps, license.id, license.expiresAt + 30 * DAY);

    expect((await validate(api, other.publishableKey, licenseKey)).body).toEqual({ valid: false, reason: 'not_found' });
  });
});
