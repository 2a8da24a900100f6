import { describe, expect, test } from 'bun:test';
import { compactVerify, importJWK } from 'jose';
import { MACHINE_FILE_LIMITS, parseMachineFile } from '../../src/domain/machine-file.ts';
import { sha256Hex } from '../../src/domain/sha256.ts';
import { depsFor } from '../support/deps.ts';
import { STORE_FACTORIES } from '../contracts/stores.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { expectError, expectHandled } from './fixtures.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FP = 'a'.repeat(64);

/** A seller whose product allows `maxMachines` machines, and one granted license of it. */
async function licensed(api: TestApi = testApi(), productFields: Record<string, unknown> = {}, grant: Record<string, unknown> = {}) {
  const s = await seller(api);
  if (Object.keys(productFields).length) await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: productFields });
  const { license, licenseKey } = await s.grant(grant);
  const issue = (body: Record<string, unknown> = {}, key = s.publishableKey) =>
    api.call('POST', '/licenses/machine-file', { key, body: { licenseKey, machineFingerprint: FP, productId: s.product.id, ...body } });
  const list = (query = '', key = s.apiKey) => api.call('GET', `/licenses/${license.id}/machine-files${query}`, { key });
  return { api, s, license, licenseKey, issue, list };
}

/** The file's claims, verified by a JOSE library against the seller's published JWKS. */
async function verifiedByJwks(api: TestApi, developerId: string, machineFile: string) {
  const { keys } = (await api.call('GET', `/developers/${developerId}/jwks.json`)).body as { keys: { kid: string; x: string }[] };
  const parsed = parseMachineFile(machineFile)!;
  const jwk = keys.find((k) => k.kid === parsed.kid)!;
  const { payload, protectedHeader } = await compactVerify(machineFile, await importJWK({ kty: 'OKP', crv: 'Ed25519', x: jwk.x }, 'EdDSA'));
  return { header: protectedHeader, claims: JSON.parse(new TextDecoder().decode(payload)) };
}

describe('POST /licenses/machine-file', () => {
  test('201: a JWS signed with the seller’s key (kid in the JWKS) naming the license, product, features and the fingerprint’s SHA-256, valid 30 days', async () => {
    const { api, s, license, issue } = await licensed();
    const now = api.clock.now();
    const reply = await issue();
    expect(reply.status).toBe(201);
    const { header, claims } = await verifiedByJwks(api, s.id, reply.body.machineFile);
    expect(header).toMatchObject({ alg: 'EdDSA', typ: 'licensing-machine-file+jws' });
    expect(claims).toEqual({
      iss: expect.any(String), sub: s.id, id: reply.body.file.id, licenseId: license.id, productId: s.product.id, features: ['pro'],
      fingerprintHash: await sha256Hex(FP), issuedAt: now, expiresAt: now + 30 * DAY, licenseExpiresAt: null,
    });
    expect(reply.body.machineFile).not.toContain(FP);
    expect(reply.body.file).toEqual({ id: expect.stringMatching(/^mf_/), licenseId: license.id, fingerprintHash: await sha256Hex(FP), issuedAt: now, expiresAt: now + 30 * DAY });
    expect(reply.body.activation.machineFingerprint).toBe(FP);
  });

  test('ttlDays: one hour at least, never past the license’s end; out of range is 400 naming the field', async () => {
    const { api, issue } = await licensed(testApi(), {}, { expiresAt: Date.UTC(2026, 0, 11) });
    const now = api.clock.now();
    expect((await issue({ ttlDays: 1 / 24 })).body.file.expiresAt).toBe(now + HOUR);
    expect((await issue({ ttlDays: 365 })).body.file.expiresAt).toBe(Date.UTC(2026, 0, 11));
    for (const ttlDays of [0, 0.01, 366, '7', null]) {
      const reply = await issue({ ttlDays });
      expectError(reply, 400, 'invalid_request');
      expect(reply.body.error.details.issues[0].field).toBe('ttlDays');
    }
  });

  test('takes an activation slot: another machine on a full license is 409 activation_limit; the bound machine reuses its slot', async () => {
    const { api, s, license, issue } = await licensed();
    const first = await issue();
    const again = await issue();
    expect(again.body.activation.id).toBe(first.body.activation.id);
    expectError(await issue({ machineFingerprint: 'b'.repeat(64) }), 409, 'activation_limit');
    expect((await api.call('GET', `/licenses/${license.id}/activations`, { key: s.apiKey })).body.data).toHaveLength(1);
  });

  test('a revoked license gets none: 409 conflict', async () => {
    const { api, s, license, issue } = await licensed();
    await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });
    expectError(await issue(), 409, 'conflict');
  });

  test(`at most ${MACHINE_FILE_LIMITS.perDay} per license in 24 hours: the next is 429 with Retry-After, and allowed again once the first is a day old`, async () => {
    const { api, issue, list } = await licensed();
    for (let i = 0; i < MACHINE_FILE_LIMITS.perDay; i++) {
      expect((await issue()).status).toBe(201);
      api.clock.advance(60_000);
    }
    const refused = await issue();
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBe((DAY - 10 * 60_000) / 1000);
    api.clock.advance(DAY - 10 * 60_000);
    expect((await issue()).status).toBe(201);
    expect((await list('?limit=100')).body.data).toHaveLength(MACHINE_FILE_LIMITS.perDay + 1);
  });

  test('an unknown key, another seller’s key, a key of a product not named: 404; NUL bytes and forged values: JSON 400', async () => {
    const { api, s, licenseKey, issue } = await licensed();
    const other = await licensed(api);
    expectError(await issue({ licenseKey: other.licenseKey }), 404, 'not_found');
    expectError(await issue({ licenseKey: 'eyJ.nope.x' }), 404, 'not_found');
    expectError(await issue({ productId: other.s.product.id }), 404, 'not_found');
    for (const body of [{ machineFingerprint: 'a\u0000b' }, { licenseKey: `${licenseKey}\u0000` }, { productId: 'prod_\u0000' }, { legacyFingerprint: '\u0000' }, { machineFingerprint: '' }]) {
      const reply = await issue(body);
      expectHandled(reply);
      expect(reply.status).toBeGreaterThanOrEqual(400);
    }
    expectError(await api.call('POST', '/licenses/machine-file', { body: { licenseKey, machineFingerprint: FP } }), 401, 'unauthorized');
    expectError(await api.call('POST', '/licenses/machine-file', { key: s.publishableKey, rawBody: '{"licenseKey":' }), 400, 'invalid_request');
  });
});

describe('the seller: GET /licenses/:id/machine-files and POST /licenses/:id/machine-files', () => {
  test('every file issued is listed, newest first, paged by startingAfter', async () => {
    const { api, issue, list } = await licensed();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await issue()).body.file.id);
      api.clock.advance(1);
    }
    const first = await list('?limit=2');
    expect(first.body.data.map((f: { id: string }) => f.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.hasMore).toBe(true);
    const next = await list(`?limit=3&startingAfter=${ids[3]}`);
    expect(next.body).toEqual({ data: [ids[2], ids[1], ids[0]].map((id) => expect.objectContaining({ id })), hasMore: false });
  });

  test('another seller’s license is 404, a publishable key 403, a forged cursor or a bad limit 400', async () => {
    const { api, license, list, s } = await licensed();
    const other = await licensed(api);
    expectError(await api.call('GET', `/licenses/${license.id}/machine-files`, { key: other.s.apiKey }), 404, 'not_found');
    expectError(await list('', s.publishableKey), 403, 'forbidden');
    expectError(await list('?startingAfter=mf_forged'), 400, 'invalid_request');
    expectError(await list('?limit=0'), 400, 'invalid_request');
    expectError(await list('?startingAfter=%00'), 400, 'invalid_request');
    expectError(await api.call('GET', '/licenses/lic_%00/machine-files', { key: s.apiKey }), 400, 'invalid_request');
    expectError(await api.call('GET', '/licenses/lic_forged/machine-files', { key: s.apiKey }), 404, 'not_found');
  });

  test('an offline request file (licenseKey, machineFingerprint, productId) posted as it is with the secret key: a machine file, counted and listed like any', async () => {
    const { api, s, license, licenseKey, list } = await licensed();
    const requestFile = { licenseKey, machineFingerprint: FP, productId: s.product.id };
    const reply = await api.call('POST', `/licenses/${license.id}/machine-files`, { key: s.apiKey, body: requestFile });
    expect(reply.status).toBe(201);
    expect((await verifiedByJwks(api, s.id, reply.body.machineFile)).claims.licenseId).toBe(license.id);
    expect((await list()).body.data.map((f: { id: string }) => f.id)).toEqual([reply.body.file.id]);
  });

  test('the seller’s route: another seller’s license, a key of another license, a publishable key are refused', async () => {
    const { api, s, license, licenseKey } = await licensed();
    const mine2 = await s.grant();
    const other = await licensed(api);
    const post = (id: string, body: Record<string, unknown>, key = s.apiKey) => api.call('POST', `/licenses/${id}/machine-files`, { key, body: { machineFingerprint: FP, ...body } });
    expectError(await post(license.id, { licenseKey: mine2.licenseKey }), 404, 'not_found');
    expectError(await post(other.license.id, { licenseKey: other.licenseKey }), 404, 'not_found');
    expectError(await post(license.id, { licenseKey }, s.publishableKey), 403, 'forbidden');
    expectError(await post('lic_%00', { licenseKey }), 400, 'invalid_request');
    expectHandled(await post(license.id, { licenseKey, machineFingerprint: 'x\u0000' }));
  });
});

describe('the daily limit under 20 concurrent requests, on every store', () => {
  for (const factory of STORE_FACTORIES) {
    test(`${factory.name}: exactly ${MACHINE_FILE_LIMITS.perDay} files, the rest 429`, async () => {
      const opened = await factory.open();
      try {
        const api = testApi({ deps: depsFor(opened.store) });
        const { issue, list } = await licensed(api);
        const replies = await Promise.all(Array.from({ length: 20 }, () => issue()));
        expect(replies.filter((r) => r.status === 201)).toHaveLength(MACHINE_FILE_LIMITS.perDay);
        expect(replies.filter((r) => r.status === 429)).toHaveLength(20 - MACHINE_FILE_LIMITS.perDay);
        expect((await list('?limit=100')).body.data).toHaveLength(MACHINE_FILE_LIMITS.perDay);
      } finally {
        await opened.dispose();
      }
    });
  }
});
