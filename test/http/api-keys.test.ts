import { afterEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { depsFor } from '../support/deps.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { expectError } from './fixtures.ts';

const create = (api: TestApi, key: string, scope: string) => api.call('POST', '/developers/api-keys', { key, body: { scope } });
const revoke = (api: TestApi, key: string, id: string) => api.call('POST', `/developers/api-keys/${id}/revoke`, { key });
const list = (api: TestApi, key: string) => api.call('GET', '/developers/api-keys', { key });
const products = (api: TestApi, key: string) => api.call('GET', '/developers/products', { key });

/** The id of the secret key signup made, read from the list: the secret key that is not `spareId`. */
async function signupSecretId(api: TestApi, key: string, spareId: string): Promise<string> {
  const listed = await list(api, key);
  return listed.body.data.find((k: { id: string; scope: string }) => k.scope === 'secret' && k.id !== spareId).id;
}

describe('POST /developers/api-keys', () => {
  test('a new secret key answers 201 {id, scope, key, createdAt} and works at once', async () => {
    const api = testApi();
    const s = await seller(api);

    const created = await create(api, s.apiKey, 'secret');

    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.stringMatching(/^key_/), scope: 'secret', key: expect.stringMatching(/^sk_/), createdAt: api.clock.now() });
    const reply = await products(api, created.body.key);
    expect(reply.status).toBe(200);
    expect(reply.body.data.map((p: { id: string }) => p.id)).toEqual([s.product.id]);
  });

  test('a new publishable key validates licenses and is refused where a secret key is needed', async () => {
    const api = testApi();
    const s = await seller(api);
    const { licenseKey } = await s.grant();

    const created = await create(api, s.apiKey, 'publishable');

    expect(created.body.key).toMatch(/^pk_/);
    const validated = await api.call('POST', '/licenses/validate', { key: created.body.key, body: { licenseKey, machineFingerprint: 'm' } });
    expect(validated.body.valid).toBe(true);
    expectError(await products(api, created.body.key), 403, 'forbidden');
  });

  test('an unknown scope is 400 invalid_request', async () => {
    const api = testApi();
    const s = await seller(api);
    expectError(await create(api, s.apiKey, 'admin'), 400, 'invalid_request');
  });
});

describe('GET /developers/api-keys', () => {
  test('lists the caller’s keys newest first, never a key or its digest', async () => {
    const api = testApi();
    const s = await seller(api);
    await seller(api);
    api.clock.advance(1_000);
    const created = await create(api, s.apiKey, 'secret');

    const listed = await list(api, s.apiKey);

    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(3);
    expect(listed.body.data[0]).toEqual({ id: created.body.id, scope: 'secret', createdAt: created.body.createdAt, revokedAt: null, lastUsedAt: null });
    expect(listed.body.data.map((k: { scope: string }) => k.scope).sort()).toEqual(['publishable', 'secret', 'secret']);
    const text = JSON.stringify(listed.body);
    for (const secret of [s.apiKey, s.publishableKey, created.body.key, api.deps.hashing.hash(s.apiKey)]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/"(key|keyHash)"/);
  });
});

describe('lastUsedAt', () => {
  test('null until the key is used; then the time of a request, written again only a minute later', async () => {
    const api = testApi();
    const s = await seller(api);
    const spare = await create(api, s.apiKey, 'publishable');
    const lastUsed = async () => (await list(api, s.apiKey)).body.data.find((k: { id: string }) => k.id === spare.body.id).lastUsedAt;
    expect(await lastUsed()).toBeNull();

    const firstUse = api.clock.now();
    await api.call('POST', '/licenses/validate', { key: spare.body.key, body: { licenseKey: 'x'.repeat(20), machineFingerprint: 'm' } });
    expect(await lastUsed()).toBe(firstUse);

    api.clock.advance(59_000);
    await api.call('POST', '/licenses/validate', { key: spare.body.key, body: { licenseKey: 'x'.repeat(20), machineFingerprint: 'm' } });
    expect(await lastUsed()).toBe(firstUse);

    api.clock.advance(1_000);
    await api.call('POST', '/licenses/validate', { key: spare.body.key, body: { licenseKey: 'x'.repeat(20), machineFingerprint: 'm' } });
    expect(await lastUsed()).toBe(firstUse + 60_000);
  });
});

describe('POST /developers/api-keys/:id/revoke', () => {
  test('the revoked key is 401 at once; the developer’s other keys keep working', async () => {
    const api = testApi();
    const s = await seller(api);
    const spare = await create(api, s.apiKey, 'secret');
    expect((await products(api, spare.body.key)).status).toBe(200);

    const revoked = await revoke(api, s.apiKey, spare.body.id);

    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ id: spare.body.id, scope: 'secret', createdAt: spare.body.createdAt, revokedAt: api.clock.now(), lastUsedAt: api.clock.now() });
    expectError(await products(api, spare.body.key), 401, 'unauthorized');
    expect((await products(api, s.apiKey)).status).toBe(200);
  });

  test('a key may revoke itself when another secret key remains', async () => {
    const api = testApi();
    const s = await seller(api);
    const spare = await create(api, s.apiKey, 'secret');

    expect((await revoke(api, s.apiKey, await signupSecretId(api, s.apiKey, spare.body.id))).status).toBe(200);

    expectError(await products(api, s.apiKey), 401, 'unauthorized');
    expect((await products(api, spare.body.key)).status).toBe(200);
  });

  test('revoking twice answers the same record: the first revocation time stays', async () => {
    const api = testApi();
    const s = await seller(api);
    const pk = await create(api, s.apiKey, 'publishable');
    const first = await revoke(api, s.apiKey, pk.body.id);
    api.clock.advance(60_000);

    const second = await revoke(api, s.apiKey, pk.body.id);

    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });

  test('the last active secret key cannot be revoked: 409 conflict, and it keeps working', async () => {
    const api = testApi();
    const s = await seller(api);
    const spare = await create(api, s.apiKey, 'secret');
    await revoke(api, s.apiKey, spare.body.id);

    const reply = await revoke(api, s.apiKey, await signupSecretId(api, s.apiKey, spare.body.id));

    expectError(reply, 409, 'conflict');
    expect(reply.body.error.message).toBe('Make another secret key before revoking the last one.');
    expect((await products(api, s.apiKey)).status).toBe(200);
  });

  test('another developer’s key id is 404 not_found and stays usable', async () => {
    const api = testApi();
    const mine = await seller(api);
    const other = await seller(api);
    const theirs = await create(api, other.apiKey, 'secret');

    expectError(await revoke(api, mine.apiKey, theirs.body.id), 404, 'not_found');

    expect((await products(api, theirs.body.key)).status).toBe(200);
  });

  test('with a publishable key: 403 forbidden, nothing revoked', async () => {
    const api = testApi();
    const s = await seller(api);
    const spare = await create(api, s.apiKey, 'secret');

    expectError(await revoke(api, s.publishableKey, spare.body.id), 403, 'forbidden');

    expect((await products(api, spare.body.key)).status).toBe(200);
  });
});

describe('revocation on the owner store (API keys cached in memory)', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  test('a key that was just used, and so is cached, is 401 right after its revocation', async () => {
    dir = mkdtempSync(join(tmpdir(), 'licensing-api-keys-'));
    const store = openSqliteStore(join(dir, 'store.db'), { owner: true });
    try {
      const api = testApi({ deps: depsFor(store) });
      const s = await seller(api);
      const spare = await create(api, s.apiKey, 'secret');
      expect((await products(api, spare.body.key)).status).toBe(200);

      await revoke(api, s.apiKey, spare.body.id);

      expectError(await products(api, spare.body.key), 401, 'unauthorized');
    } finally {
      await store.close();
    }
  });
});
