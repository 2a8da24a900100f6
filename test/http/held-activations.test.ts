import { describe, expect, test } from 'bun:test';
import { createLocalJWKSet, flattenedVerify } from 'jose';
import { sqliteDeps, testSettings } from '../support/deps.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { expectError } from './fixtures.ts';

const NONCE = 'held_0123456789abcdefgh';

/** A seller whose product allows two machines, one granted license, and the seller's JWKS. */
async function licensed(api: TestApi = testApi()) {
  const s = await seller(api);
  await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { maxMachines: 2 } });
  const { license, licenseKey } = await s.grant();
  const jwks = async () => (await api.call('GET', `/developers/${s.id}/jwks.json`)).body;
  return { api, s, license, licenseKey, jwks };
}

/** POST /licenses/activations through app.handle, keeping the exact bytes of the body. */
async function held(api: TestApi, key: string, licenseKey: string) {
  const response = await api.app.handle(
    new Request('http://localhost/v1/licenses/activations', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'licensing-nonce': NONCE },
      body: JSON.stringify({ licenseKey }),
    }),
  );
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
}

describe('POST /licenses/activations: the holder lists its license’s machines', () => {
  test('the machines oldest first with maxMachines, as the seller’s listing shows them', async () => {
    const { api, s, license, licenseKey } = await licensed();
    await api.call('POST', '/licenses/activate', { key: s.publishableKey, body: { licenseKey, machineFingerprint: 'm-1', name: 'ada-laptop' } });
    api.clock.advance(1);
    await api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint: 'm-2' } });

    const reply = await held(api, s.publishableKey, licenseKey);
    const seller = await api.call('GET', `/licenses/${license.id}/activations`, { key: s.apiKey });

    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      licenseId: license.id,
      maxMachines: 2,
      data: [
        { id: expect.stringMatching(/^act_/), name: 'ada-laptop', machineFingerprint: 'm-1', createdAt: expect.any(Number), lastSeenAt: expect.any(Number) },
        { id: expect.stringMatching(/^act_/), name: null, machineFingerprint: 'm-2', createdAt: expect.any(Number), lastSeenAt: expect.any(Number) },
      ],
    });
    expect(reply.body).toEqual(seller.body);
  });

  test('the answer is signed like validation’s: over its exact body, with the nonce and no machine', async () => {
    const { api, s, licenseKey, jwks } = await licensed();

    const reply = await held(api, s.publishableKey, licenseKey);
    const [protectedHeader, , signature] = reply.headers.get('licensing-signature')!.split('.');
    const verified = await flattenedVerify({ protected: protectedHeader!, payload: Buffer.from(reply.text).toString('base64url'), signature: signature! }, createLocalJWKSet(await jwks()));

    expect(verified.protectedHeader).toEqual({ alg: 'EdDSA', kid: expect.any(String), typ: 'licensing-answer+jws', op: 'activations', serverTime: api.clock.now(), nonce: NONCE });
    expect(JSON.parse(new TextDecoder().decode(verified.payload))).toEqual({ licenseId: expect.any(String), maxMachines: 2, data: [] });
  });

  test('the OpenAPI document names the signature header and the application/jose form on its 200', async () => {
    const { api } = await licensed();
    const document = (await api.call('GET', '/openapi.json')).body;
    const ok = document.paths['/v1/licenses/activations'].post.responses['200'];

    expect(Object.keys(ok.headers)).toEqual(['Licensing-Signature', 'Licensing-Key-Chain']);
    expect(Object.keys(ok.content)).toEqual(expect.arrayContaining(['application/json', 'application/jose']));
  });

  test('the secret key may list too', async () => {
    const { api, s, licenseKey } = await licensed();
    expect((await held(api, s.apiKey, licenseKey)).status).toBe(200);
  });

  test('another seller’s key, an unknown key or a foreign license: 404 not_found', async () => {
    const api = testApi();
    const { s, licenseKey } = await licensed(api);
    const other = await licensed(api);

    expectError(await api.call('POST', '/licenses/activations', { key: other.s.publishableKey, body: { licenseKey } }), 404, 'not_found');
    expectError(await api.call('POST', '/licenses/activations', { key: s.publishableKey, body: { licenseKey: 'not.a.key' } }), 404, 'not_found');
  });

  test('without an API key: 401; without licenseKey: 400 naming it', async () => {
    const { api, s } = await licensed();
    expectError(await api.call('POST', '/licenses/activations', { body: { licenseKey: 'x' } }), 401);
    const missing = await api.call('POST', '/licenses/activations', { key: s.publishableKey, body: {} });
    expectError(missing, 400, 'invalid_request');
    expect(missing.body.error.details.issues[0].field).toBe('licenseKey');
  });

  test('counted against the license’s validation rate limit, like activate', async () => {
    const { deps } = sqliteDeps();
    const api = testApi({ deps: { ...deps, settings: testSettings({ validateRateLimitPerMinute: 3 }) } });
    const { s, licenseKey } = await licensed(api);
    await api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint: 'm-1' } });
    for (let i = 0; i < 2; i++) expect((await held(api, s.publishableKey, licenseKey)).status).toBe(200);

    const refused = await api.call('POST', '/licenses/activations', { key: s.publishableKey, body: { licenseKey } });

    expectError(refused, 429, 'rate_limited');
  });
});
