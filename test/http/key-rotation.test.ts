import { beforeAll, describe, expect, test } from 'bun:test';
import { compactVerify, decodeProtectedHeader, importJWK } from 'jose';
import { ACTIVE_KEY_TTL_MS } from '../../src/app/licenses/sign-answer.ts';
import { utf8 } from '../../src/domain/base64url.ts';
import { ROTATION_LEAD_MS } from '../../src/domain/key-statements.ts';
import { assembleLicenseKey, signingInputFor, type LicenseClaims } from '../../src/domain/license-key.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { decodeKey, expectError } from './fixtures.ts';

// docs/key-rotation.md: staged rotations, endorsements, compromised retirements, on the service's clock.
type Jwk = { kid: string; x: string; status: string; notBefore: number; endorsement?: string; compromisedAt?: number; retirement?: string };

let api: TestApi;
beforeAll(() => {
  api = testApi();
});

async function aSeller() {
  const s = await seller(api);
  const jwks = async () => (await api.call<{ keys: Jwk[] }>('GET', `/developers/${s.id}/jwks.json`)).body.keys;
  const rotate = (body?: object) => api.call('POST', '/developers/signing-keys/rotate', { key: s.apiKey, body });
  const kidOfNewLicense = async () => decodeKey((await s.grant()).licenseKey).header.kid;
  const answer = async (licenseKey: string) => {
    // A nonce asks for a signed answer (an unasked one is not signed).
    const reply = await api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint: 'm'.repeat(16) }, headers: { 'licensing-nonce': 'n0nce_0123456789abcdef' } });
    return { kid: decodeProtectedHeader(reply.headers.get('licensing-signature')!).kid, chain: reply.headers.get('licensing-key-chain') };
  };
  const first = (await jwks())[0]!;
  return { s, jwks, rotate, kidOfNewLicense, answer, first, licenseKey: (await s.grant()).licenseKey };
}

/** A JOSE library's view of a statement, verified with one JWK of the set. */
async function verifiedBy(jwk: Jwk, statement: string) {
  const { payload, protectedHeader } = await compactVerify(statement, await importJWK({ kty: 'OKP', crv: 'Ed25519', x: jwk.x }, 'EdDSA'));
  return { header: protectedHeader, claims: JSON.parse(new TextDecoder().decode(payload)) };
}

describe('a rotation with no body', () => {
  test('starts the new key at once, as the API always promised: new licenses and answers are signed with it, endorsed by the key before', async () => {
    const w = await aSeller();

    const rotation = await w.rotate();
    const [next] = await w.jwks();

    expect(rotation.status).toBe(201);
    expect(rotation.body).toMatchObject({ kid: next!.kid, notBefore: api.clock.now(), status: 'current', endorsedBy: w.first.kid });
    expect(await w.kidOfNewLicense()).toBe(next!.kid);
    expect((await verifiedBy(w.first, next!.endorsement!)).claims.kid).toBe(next!.kid);
  });
});

describe('a staged rotation', () => {
  test('publishes the next key 7 days ahead, endorsed by the current one, which goes on signing licenses and answers', async () => {
    const w = await aSeller();
    const now = api.clock.now();

    const rotation = await w.rotate({ notBefore: api.clock.now() + ROTATION_LEAD_MS });
    const [next, current] = await w.jwks();

    expect(rotation.status).toBe(201);
    expect(rotation.body).toEqual({ kid: next!.kid, publicKey: next!.x, notBefore: now + ROTATION_LEAD_MS, status: 'next', endorsedBy: w.first.kid, compromised: [] });
    expect([next!.status, current!.status]).toEqual(['next', 'current']);
    expect(current).toEqual(w.first);
    expect(await w.kidOfNewLicense()).toBe(w.first.kid);
    const answer = await w.answer(w.licenseKey);
    expect(answer).toEqual({ kid: w.first.kid, chain: next!.endorsement! });
    const endorsed = await verifiedBy(current!, next!.endorsement!);
    expect(endorsed.header).toEqual({ alg: 'EdDSA', kid: w.first.kid, typ: 'licensing-key-endorsement+jws' });
    expect(endorsed.claims).toEqual({ sub: w.s.id, kid: next!.kid, x: next!.x, notBefore: now + ROTATION_LEAD_MS, iat: now });
  });

  test('at its start the next key signs licenses and answers at once, and the one before is retired but still listed', async () => {
    const w = await aSeller();
    const next = (await w.rotate({ notBefore: api.clock.now() + ACTIVE_KEY_TTL_MS / 2 })).body;
    expect((await w.answer(w.licenseKey)).kid).toBe(w.first.kid); // the answer signer now holds the current key

    api.clock.advance(ACTIVE_KEY_TTL_MS / 2 - 1);
    expect(await w.kidOfNewLicense()).toBe(w.first.kid);
    api.clock.advance(1);

    expect(await w.kidOfNewLicense()).toBe(next.kid);
    expect((await w.answer(w.licenseKey)).kid).toBe(next.kid);
    expect((await w.jwks()).map((k) => [k.kid, k.status])).toEqual([[next.kid, 'current'], [w.first.kid, 'retired']]);
  });

  test('a second rotation while a key waits to start is 409 conflict and changes nothing', async () => {
    const w = await aSeller();
    await w.rotate({ notBefore: api.clock.now() + ROTATION_LEAD_MS });
    const before = await w.jwks();

    expectError(await w.rotate({ notBefore: 0 }), 409, 'conflict');
    expect(await w.jwks()).toEqual(before);
  });

  test('a seller that never rotated sends no key chain with its answers', async () => {
    const w = await aSeller();
    expect((await w.answer(w.licenseKey)).chain).toBeNull();
    expect(w.first.endorsement).toBeUndefined();
  });
});

describe('a compromised rotation', () => {
  test('retires the signing key and a waiting key, starts the successor now, and has it sign their retirement', async () => {
    const w = await aSeller();
    const waiting = (await w.rotate({ notBefore: api.clock.now() + ROTATION_LEAD_MS })).body;
    const now = api.clock.now();

    const rotation = await w.rotate({ compromised: true });
    const keys = await w.jwks();
    const byKid = new Map(keys.map((k) => [k.kid, k]));
    const successor = keys[0]!;

    expect(rotation.status).toBe(201);
    expect(rotation.body).toEqual({ kid: successor.kid, publicKey: successor.x, notBefore: now, status: 'current', endorsedBy: w.first.kid, compromised: [waiting.kid, w.first.kid] });
    expect(keys.map((k) => k.status)).toEqual(['current', 'compromised', 'compromised']);
    for (const kid of [w.first.kid, waiting.kid]) {
      const retired = byKid.get(kid)!;
      expect(retired.compromisedAt).toBe(now);
      expect((await verifiedBy(successor, retired.retirement!)).claims).toEqual({ sub: w.s.id, kid, compromisedAt: now, successor: successor.kid });
    }
    expect((await verifiedBy(byKid.get(w.first.kid)!, successor.endorsement!)).claims.kid).toBe(successor.kid);
    expect(await w.kidOfNewLicense()).toBe(successor.kid);
    api.clock.advance(ACTIVE_KEY_TTL_MS);
    const answer = await w.answer(w.licenseKey);
    expect(answer.kid).toBe(successor.kid);
    expect(answer.chain!.split(', ')).toEqual(expect.arrayContaining([successor.endorsement, byKid.get(w.first.kid)!.retirement]));
  });

  test('a license key the thief signs with the retired key after the retirement is invalid_signature online, even naming a genuine license', async () => {
    const w = await aSeller();
    await w.rotate({ compromised: true });
    const stolen = (await api.deps.signingKeys.byKid(w.first.kid))!;
    const genuine = decodeKey(w.licenseKey).claims as unknown as LicenseClaims;
    const input = signingInputFor(stolen.kid, { ...genuine, features: ['pro', 'everything'], issuedAt: api.clock.now() });
    const forged = assembleLicenseKey(input, api.deps.signer.sign(stolen.sealedPrivateKey, utf8.encode(input)));

    const reply = await api.call('POST', '/licenses/validate', { key: w.s.publishableKey, body: { licenseKey: forged, machineFingerprint: 'm'.repeat(16) } });

    expect(reply.body).toEqual({ valid: false, reason: 'invalid_signature' });
  });

  test('licenses sold before it keep validating online', async () => {
    const w = await aSeller();
    await w.rotate({ compromised: true });
    const reply = await api.call('POST', '/licenses/validate', { key: w.s.publishableKey, body: { licenseKey: w.licenseKey, machineFingerprint: 'm'.repeat(16) } });
    expect(reply.body.valid).toBe(true);
  });
});

describe('bad rotation requests are 400 invalid_request, and rotate nothing', () => {
  let w: Awaited<ReturnType<typeof aSeller>>;
  beforeAll(async () => {
    api = testApi(); // a world of its own: sign-ups per address are limited
    w = await aSeller();
  });
  const cases: [string, unknown][] = [
    ['a start more than 365 days ahead', { notBefore: Date.UTC(2030, 0, 1) }],
    ['a start with compromised', { notBefore: 0, compromised: true }],
    ['a start that is not a number', { notBefore: 'tomorrow' }],
    ['a fractional start', { notBefore: 1.5 }],
    ['compromised that is not a boolean', { compromised: 'yes' }],
    ['null instead of an object', null],
    ['an array instead of an object', [{ compromised: true }]],
  ];
  for (const [name, body] of cases) {
    test(name, async () => {
      expectError(await w.rotate(body as object), 400, 'invalid_request');
      expect(await w.jwks()).toHaveLength(1);
    });
  }
});

test('the OpenAPI document: answers name Licensing-Key-Chain, the JWKS its statuses', async () => {
  const doc = (await testApi().call('GET', '/openapi.json')).body;
  expect(doc.paths['/v1/licenses/validate'].post.responses['200'].headers['Licensing-Key-Chain']).toBeDefined();
  const jwk = doc.paths['/v1/developers/{id}/jwks.json'].get.responses['200'].content['application/json'].schema.properties.keys.items;
  for (const status of ['current', 'next', 'retired', 'compromised']) expect(JSON.stringify(jwk.properties.status)).toContain(`"${status}"`);
  expect(Object.keys(jwk.properties)).toEqual(expect.arrayContaining(['notBefore', 'endorsement', 'compromisedAt', 'retirement']));
});
