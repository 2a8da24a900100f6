import { describe, expect, test } from 'bun:test';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, flattenedVerify } from 'jose';
import { ACTIVE_KEY_TTL_MS } from '../../src/app/licenses/sign-answer.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';

const NONCE = 'n0nce_0123456789abcdef';
const FINGERPRINT = 'machine-a';

/** POST /licenses/validate through app.handle, keeping the exact bytes of the body. */
async function validate(api: TestApi, key: string, licenseKey: string, headers: Record<string, string> = {}) {
  const response = await api.app.handle(
    new Request('http://localhost/v1/licenses/validate', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'licensing-nonce': NONCE, ...headers },
      body: JSON.stringify({ licenseKey, machineFingerprint: FINGERPRINT }),
    }),
  );
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function licensed() {
  const api = testApi();
  const s = await seller(api);
  const { license, licenseKey } = await s.grant();
  const jwks = async () => (await api.call('GET', `/developers/${s.id}/jwks.json`)).body;
  return { api, s, license, licenseKey, jwks };
}

/** What any JOSE library does with the detached header: put the body back in and verify. */
async function verifyDetached(signature: string, body: string, jwks: unknown) {
  const [protectedHeader, payload, sig] = signature.split('.');
  expect(payload).toBe('');
  // The JWS JSON serialization carries the payload base64url-encoded, as the compact one does.
  return flattenedVerify({ protected: protectedHeader, payload: Buffer.from(body).toString('base64url'), signature: sig! }, createLocalJWKSet(jwks as any));
}

describe('POST /licenses/validate: signed answers', () => {
  test('a valid answer carries a detached JWS over its exact body, with the server time, the nonce and the fingerprint', async () => {
    const { api, s, license, licenseKey, jwks } = await licensed();
    const reply = await validate(api, s.publishableKey, licenseKey);

    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toEqual({ valid: true, license: { id: license.id, status: 'active', features: ['pro'], expiresAt: null } });
    const verified = await verifyDetached(reply.headers.get('licensing-signature')!, reply.text, await jwks());
    const keys = (await jwks()).keys;
    expect(verified.protectedHeader).toEqual({
      alg: 'EdDSA', kid: keys[0].kid, typ: 'licensing-answer+jws', op: 'validate', serverTime: api.clock.now(), nonce: NONCE, machineFingerprint: FINGERPRINT,
    });
    expect(new TextDecoder().decode(verified.payload)).toBe(reply.text);
  });

  test('invalid verdicts are signed too', async () => {
    const { api, s, license, licenseKey, jwks } = await licensed();
    await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });
    for (const key of [licenseKey, 'not-a-key']) {
      const reply = await validate(api, s.publishableKey, key);
      expect(JSON.parse(reply.text).valid).toBe(false);
      expect((await verifyDetached(reply.headers.get('licensing-signature')!, reply.text, await jwks())).protectedHeader?.nonce).toBe(NONCE);
    }
  });

  test('Accept: application/jose answers the body itself as a compact JWS', async () => {
    const { api, s, license, licenseKey, jwks } = await licensed();
    const reply = await validate(api, s.publishableKey, licenseKey, { accept: 'application/jose' });

    expect(reply.headers.get('content-type')).toBe('application/jose');
    const { payload, protectedHeader } = await compactVerify(reply.text, createLocalJWKSet(await jwks()));
    expect(JSON.parse(new TextDecoder().decode(payload))).toMatchObject({ valid: true, license: { id: license.id } });
    expect(protectedHeader).toMatchObject({ nonce: NONCE, serverTime: api.clock.now() });
  });

  test('an unasked answer (no nonce, no Accept: application/jose) is the same JSON body, unsigned', async () => {
    const { api, s, license, licenseKey } = await licensed();
    const reply = await validate(api, s.publishableKey, licenseKey, { 'licensing-nonce': '' });
    // An empty header is a malformed nonce; an absent one asks for no signature.
    expect(reply.status).toBe(400);
    const signed = await validate(api, s.publishableKey, licenseKey);
    const response = await api.app.handle(
      new Request('http://localhost/v1/licenses/validate', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': s.publishableKey },
        body: JSON.stringify({ licenseKey, machineFingerprint: FINGERPRINT }),
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('licensing-signature')).toBeNull();
    expect(response.headers.get('licensing-key-chain')).toBeNull();
    const text = await response.text();
    expect(text).toBe(signed.text);
    expect(JSON.parse(text)).toEqual({ valid: true, license: { id: license.id, status: 'active', features: ['pro'], expiresAt: null } });
  });

  test('Accept: application/jose without a nonce is signed, with no nonce in its header', async () => {
    const { api, s, licenseKey, jwks } = await licensed();
    const response = await api.app.handle(
      new Request('http://localhost/v1/licenses/validate', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': s.publishableKey, accept: 'application/jose' },
        body: JSON.stringify({ licenseKey, machineFingerprint: FINGERPRINT }),
      }),
    );
    const text = await response.text();
    const { protectedHeader } = await compactVerify(text, createLocalJWKSet(await jwks()));
    expect(protectedHeader).toMatchObject({ op: 'validate', serverTime: api.clock.now(), machineFingerprint: FINGERPRINT });
    expect(protectedHeader.nonce).toBeUndefined();
    const [h, , sig] = text.split('.');
    expect(response.headers.get('licensing-signature')).toBe(`${h}..${sig}`);
  });

  test('a malformed nonce is a 400 invalid_request naming the header, and nothing is validated', async () => {
    const { api, s, license, licenseKey } = await licensed();
    for (const nonce of ['short', 'x'.repeat(129), 'has spaces in it here', 'dots.are.not.allowed.here', 'é'.repeat(20)]) {
      const reply = await validate(api, s.publishableKey, licenseKey, { 'licensing-nonce': encodeURI(nonce) === nonce ? nonce : 'ab%cd'.repeat(4) });
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.text).error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('Licensing-Nonce') });
      expect(reply.headers.get('licensing-signature')).toBeNull();
    }
    expect((await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey })).body.machineFingerprint).toBeNull();
  });

  test('errors (401) carry no signature', async () => {
    const { api, licenseKey } = await licensed();
    const reply = await validate(api, 'pk_wrong', licenseKey);
    expect(reply.status).toBe(401);
    expect(reply.headers.get('licensing-signature')).toBeNull();
  });

  test("another seller's JWKS does not verify the answer", async () => {
    const { api, s, licenseKey } = await licensed();
    const other = await seller(api);
    const reply = await validate(api, s.publishableKey, licenseKey);
    const otherJwks = (await api.call('GET', `/developers/${other.id}/jwks.json`)).body;
    await expect(verifyDetached(reply.headers.get('licensing-signature')!, reply.text, otherJwks)).rejects.toThrow();
  });

  test('a changed body or header no longer verifies', async () => {
    const { api, s, licenseKey, jwks } = await licensed();
    const reply = await validate(api, s.publishableKey, licenseKey);
    const signature = reply.headers.get('licensing-signature')!;
    await expect(verifyDetached(signature, reply.text.replace('"active"', '"revoked"'), await jwks())).rejects.toThrow();
    const [h, , sig] = signature.split('.');
    const header = JSON.parse(Buffer.from(h!, 'base64url').toString());
    const later = Buffer.from(JSON.stringify({ ...header, serverTime: header.serverTime + 1 })).toString('base64url');
    await expect(verifyDetached(`${later}..${sig}`, reply.text, await jwks())).rejects.toThrow();
  });

  test('after a rotation answers are signed with the new key within the cache time; the old kid stays verifiable', async () => {
    const { api, s, licenseKey, jwks } = await licensed();
    const before = await validate(api, s.publishableKey, licenseKey);
    const rotation = (await api.call('POST', '/developers/signing-keys/rotate', { key: s.apiKey, body: { notBefore: api.clock.now() } })).body;
    api.clock.advance(ACTIVE_KEY_TTL_MS);
    const after = await validate(api, s.publishableKey, licenseKey);

    expect(decodeProtectedHeader(after.headers.get('licensing-signature')!).kid).toBe(rotation.kid);
    await verifyDetached(before.headers.get('licensing-signature')!, before.text, await jwks());
    await verifyDetached(after.headers.get('licensing-signature')!, after.text, await jwks());
  });

  test('the OpenAPI document names the nonce header, the signature header and application/jose', async () => {
    const api = testApi();
    const operation = (await api.call('GET', '/openapi.json')).body.paths['/v1/licenses/validate'].post;
    expect(operation.parameters).toContainEqual(expect.objectContaining({ name: 'Licensing-Nonce', in: 'header' }));
    expect(operation.responses['200'].headers['Licensing-Signature']).toBeDefined();
    expect(operation.responses['200'].content['application/jose']).toBeDefined();
    expect(operation.responses['200'].content['application/json']).toBeDefined();
  });
});

/** POST /licenses/activate or /licenses/deactivate through app.handle, keeping the exact bytes of the body. */
async function holderCall(api: TestApi, path: string, key: string, licenseKey: string) {
  const response = await api.app.handle(
    new Request(`http://localhost/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'licensing-nonce': NONCE },
      body: JSON.stringify({ licenseKey, machineFingerprint: FINGERPRINT }),
    }),
  );
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('POST /licenses/activate and /licenses/deactivate: signed answers', () => {
  test('activating (201), activating again (200) and deactivating answer with a detached JWS over the exact body, for this nonce and machine', async () => {
    const { api, s, licenseKey, jwks } = await licensed();
    const steps = [
      { path: '/licenses/activate', status: 201, op: 'activate' },
      { path: '/licenses/activate', status: 200, op: 'activate' },
      { path: '/licenses/deactivate', status: 200, op: 'deactivate' },
    ];
    for (const step of steps) {
      const reply = await holderCall(api, step.path, s.publishableKey, licenseKey);

      expect(reply.status).toBe(step.status);
      expect(JSON.parse(reply.text).activation.machineFingerprint).toBe(FINGERPRINT);
      const verified = await verifyDetached(reply.headers.get('licensing-signature')!, reply.text, await jwks());
      expect(verified.protectedHeader).toMatchObject({ typ: 'licensing-answer+jws', op: step.op, nonce: NONCE, machineFingerprint: FINGERPRINT, serverTime: api.clock.now() });
      expect(new TextDecoder().decode(verified.payload)).toBe(reply.text);
    }
  });

  test('each route signs its own op, so one route’s answer (same nonce, same machine) cannot pass for another’s', async () => {
    const { api, s, licenseKey, jwks } = await licensed();
    const steps = [
      { path: '/licenses/validate', op: 'validate', body: { licenseKey, machineFingerprint: FINGERPRINT } },
      { path: '/licenses/activate', op: 'activate', body: { licenseKey, machineFingerprint: FINGERPRINT } },
      { path: '/licenses/activations', op: 'activations', body: { licenseKey } },
      { path: '/licenses/deactivate', op: 'deactivate', body: { licenseKey, machineFingerprint: FINGERPRINT } },
    ];
    for (const step of steps) {
      const response = await api.app.handle(
        new Request(`http://localhost/v1${step.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': s.publishableKey, 'licensing-nonce': NONCE },
          body: JSON.stringify(step.body),
        }),
      );
      const text = await response.text();

      expect(response.status).toBeLessThan(300);
      const verified = await verifyDetached(response.headers.get('licensing-signature')!, text, await jwks());
      expect(verified.protectedHeader).toMatchObject({ typ: 'licensing-answer+jws', op: step.op, nonce: NONCE });
    }
  });

  test('a tampered activation answer does not verify', async () => {
    const { api, s, licenseKey, jwks } = await licensed();
    const reply = await holderCall(api, '/licenses/activate', s.publishableKey, licenseKey);
    const forged = reply.text.replace(FINGERPRINT, 'machine-b');

    expect(forged).not.toBe(reply.text);
    await expect(verifyDetached(reply.headers.get('licensing-signature')!, forged, await jwks())).rejects.toThrow();
  });

  test('the OpenAPI document names the signature header on activate’s 200 and 201 and on deactivate’s 200', async () => {
    const { api } = await licensed();
    const document = (await api.call('GET', '/openapi.json')).body;
    const responses = (path: string) => document.paths[`/v1${path}`].post.responses;

    expect(Object.keys(responses('/licenses/activate')['201'].headers)).toEqual(['Licensing-Signature', 'Licensing-Key-Chain']);
    expect(Object.keys(responses('/licenses/activate')['200'].headers)).toEqual(['Licensing-Signature', 'Licensing-Key-Chain']);
    expect(Object.keys(responses('/licenses/deactivate')['200'].headers)).toEqual(['Licensing-Signature', 'Licensing-Key-Chain']);
  });
});
