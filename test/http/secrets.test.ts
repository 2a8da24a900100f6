import { afterEach, describe, expect, test } from 'bun:test';
import { createDecipheriv } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteDeps } from '../support/deps.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A busy little shop on a SQLite file: signups, products, grants, validations, unbind, rotation, revoke, errors. */
async function busyShop(api: TestApi) {
  const a = await seller(api);
  const b = await seller(api);
  const issued = [await a.grant(), await a.grant({ features: ['beta'] }), await b.grant()];
  await api.call('POST', '/licenses/validate', { key: a.publishableKey, body: { licenseKey: issued[0]!.licenseKey, machineFingerprint: 'm1' } });
  await api.call('POST', '/licenses/validate', { key: a.apiKey, body: { licenseKey: issued[0]!.licenseKey, machineFingerprint: 'm2' } });
  await api.call('POST', '/licenses/validate', { key: b.publishableKey, body: { licenseKey: issued[1]!.licenseKey, machineFingerprint: 'm3' } });
  await api.call('POST', `/licenses/${issued[0]!.license.id}/unbind`, { headers: { authorization: `Bearer ${a.apiKey}` } });
  await api.call('POST', '/developers/signing-keys/rotate', { key: a.apiKey, body: { notBefore: api.clock.now() } });
  issued.push(await a.grant());
  await api.call('POST', `/licenses/${issued[1]!.license.id}/revoke`, { key: a.apiKey });
  await api.call('POST', '/developers/products', { key: a.publishableKey, body: { name: 'x', price: 1, currency: 'usd' } });
  await api.call('GET', '/licenses/nope', { key: `${a.apiKey}x` });
  await api.call('POST', '/licenses/validate', { key: a.publishableKey, rawBody: `{"licenseKey": "${issued[2]!.licenseKey}"` });
  return { apiKeys: [a.apiKey, a.publishableKey, b.apiKey, b.publishableKey], licenseKeys: issued.map((i) => i.licenseKey), developers: [a.id, b.id] };
}

function fileShop() {
  const dir = mkdtempSync(join(tmpdir(), 'licensing-secrets-'));
  dirs.push(dir);
  const path = join(dir, 'shop.db');
  const logs: string[] = [];
  const { deps, store } = sqliteDeps(path);
  return { api: testApi({ deps, logs }), store, path, logs };
}

/** The database file with its WAL and shared-memory files, as bytes to search. */
function rawBytes(path: string): Buffer {
  return Buffer.concat([path, `${path}-wal`, `${path}-shm`].filter(existsSync).map((f) => readFileSync(f)));
}

/** The encodings a 32-byte secret could leak in. */
function encodings(bytes: Buffer): Buffer[] {
  return [bytes, Buffer.from(bytes.toString('hex')), Buffer.from(bytes.toString('base64')), Buffer.from(bytes.toString('base64url'))];
}

/** Opens a sealed key with the test signer's master key (v1.<iv>.<ciphertext+tag>, AES-256-GCM). */
function unseal(masterKey: Uint8Array, sealed: string): Buffer {
  const [, iv, body] = sealed.split('.') as [string, string, string];
  const bytes = Buffer.from(body, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', masterKey, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]);
}

describe('no raw secret in the SQLite file', () => {
  test('no API key (sk_ or pk_) appears in the database file or its WAL', async () => {
    const { api, store, path } = fileShop();
    const { apiKeys } = await busyShop(api);
    const before = rawBytes(path);
    await store.close();
    const after = rawBytes(path);
    for (const bytes of [before, after]) {
      expect(bytes.length).toBeGreaterThan(0);
      for (const key of apiKeys) expect(bytes.includes(Buffer.from(key))).toBe(false);
      for (const key of apiKeys) expect(bytes.includes(Buffer.from(key.slice(3)))).toBe(false);
    }
  });

  test('the file does hold the data (the search above looks in the right place)', async () => {
    const { api, store, path } = fileShop();
    const { developers } = await busyShop(api);
    await store.close();
    for (const id of developers) expect(rawBytes(path).includes(Buffer.from(id))).toBe(true);
  });

  test('signing private keys are stored sealed: no seed, in any encoding, in the file', async () => {
    const { api, store, path } = fileShop();
    const { developers } = await busyShop(api);
    const masterKey = (api.deps.signer as unknown as { masterKey: Uint8Array }).masterKey;
    const sealed = (await Promise.all(developers.map((id) => api.deps.signingKeys.list(id)))).flat();
    expect(sealed.length).toBe(3);
    const seeds = sealed.map((k) => unseal(masterKey, k.sealedPrivateKey));
    await store.close();
    const bytes = rawBytes(path);
    for (const [i, seed] of seeds.entries()) {
      expect(seed.length).toBe(32);
      for (const form of encodings(seed)) {
        expect(bytes.includes(form)).toBe(false);
        expect(Buffer.from(sealed[i]!.sealedPrivateKey).includes(form)).toBe(false);
      }
    }
    expect(bytes.includes(Buffer.from('PRIVATE KEY'))).toBe(false);
  });

  test('the master key itself is not in the file', async () => {
    const { api, store, path } = fileShop();
    await busyShop(api);
    const masterKey = Buffer.from((api.deps.signer as unknown as { masterKey: Uint8Array }).masterKey);
    await store.close();
    for (const form of encodings(masterKey)) expect(rawBytes(path).includes(form)).toBe(false);
  });
});

describe('no secret in the logs', () => {
  test('no API key and no license key appears in what the app logs', async () => {
    const { api, store, logs } = fileShop();
    const { apiKeys, licenseKeys } = await busyShop(api);
    await store.close();
    const text = logs.join('\n');
    for (const secret of [...apiKeys, ...licenseKeys]) expect(text.includes(secret)).toBe(false);
    for (const key of licenseKeys) expect(text.includes(key.split('.')[2]!)).toBe(false);
    for (const line of logs) expect(() => JSON.parse(line)).not.toThrow();
  });
});
