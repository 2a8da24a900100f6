import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LicenseClient, type Jwks } from '../../src/client/index.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { fakeFetch, tempDirs, unreachable } from './support.ts';

const tempDir = tempDirs();
const HOUR = 3_600_000;

/** The real HTTP app on a free port of 127.0.0.1: a seller whose product holds ['pro']. */
let api: TestApi;
let server: ReturnType<typeof Bun.serve>;
let s: Awaited<ReturnType<typeof seller>>;
let jwks: Jwks;

beforeAll(async () => {
  api = testApi();
  server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => api.app.handle(request) });
  s = await seller(api);
  jwks = (await api.call('GET', `/developers/${s.id}/jwks.json`)).body;
});
afterAll(() => server.stop(true));

function app(options: { cacheDir?: string; offline?: boolean } = {}) {
  const net = fakeFetch(unreachable);
  const client = new LicenseClient({
    baseUrl: options.offline ? 'http://127.0.0.1:9/v1' : `http://127.0.0.1:${server.port}/v1`,
    apiKey: s.publishableKey,
    productId: s.product.id,
    publicKeys: jwks,
    fingerprint: 'e'.repeat(64),
    cacheDir: options.cacheDir ?? tempDir(),
    now: () => api.clock.now(),
    ...(options.offline && { fetch: net.fetch }),
  });
  return client;
}

const setEntitlements = async (licenseId: string, entitlements: string[]) => {
  const reply = await api.call('PUT', `/licenses/${licenseId}/entitlements`, { key: s.apiKey, body: { entitlements } });
  expect(reply.status).toBe(200);
  return reply.body as { licenseKey: string; license: { features: string[] } };
};

describe('has(code): verified evidence only, the freshest by its signed time', () => {
  test('no key: false; a stored key never confirmed: its claims, case-insensitively', async () => {
    const client = app();
    expect(await client.has('pro')).toBe(false);
    const { licenseKey } = await s.grant({ features: ['Export'] });
    await client.storeLicenseKey(licenseKey);

    expect(await client.has('PRO')).toBe(true);
    expect(await client.has('export')).toBe(true);
    expect(await client.has('sync')).toBe(false);
    expect(await client.has('pro\u0000')).toBe(false);
  });

  test('a signed answer fresher than the key wins: an older key of the license typed in again still reads what the service last said', async () => {
    const client = app();
    const { license, licenseKey: oldKey } = await s.grant();
    api.clock.advance(HOUR);
    await setEntitlements(license.id, ['sync']);
    api.clock.advance(HOUR);

    expect(await client.has('sync')).toBe(false);
    await client.storeLicenseKey(oldKey);
    expect(await client.has('sync')).toBe(false); // the old key's claims alone
    const checked = await client.check();
    expect(checked).toMatchObject({ valid: true, license: { features: ['pro', 'sync'] } });
    expect(await client.has('sync')).toBe(true);

    // The old key again (its claims lack sync): the signed answer, issued later, still wins.
    await client.storeLicenseKey(oldKey);
    expect(await client.getCachedLicenseKey()).toBe(oldKey);
    expect(await client.has('SYNC')).toBe(true);
  });

  test('a verified machine file is evidence too, as of its issue time and until it expires: an air-gapped machine learns a new entitlement from its file', async () => {
    const client = app();
    const { license, licenseKey } = await s.grant();
    await client.storeLicenseKey(licenseKey);
    expect(await client.has('offline-export')).toBe(false);
    api.clock.advance(HOUR);
    await setEntitlements(license.id, ['offline-export']); // the stored (old) key does not hold it

    // The file is issued to this machine and carried over; the client checks it with no network.
    const request = JSON.parse(await client.machineFileRequest());
    const issued = await api.call('POST', '/licenses/machine-file', { key: s.publishableKey, body: { ...request, licenseKey: (await api.deps.licenses.findById(license.id))!.licenseKey, ttlDays: 1 } });
    expect(issued.status).toBe(201);
    const machineFile = issued.body.machineFile as string;
    const edited = `${machineFile.slice(0, -3)}${machineFile.endsWith('A') ? 'B' : 'A'}`;
    expect((await client.verifyMachineFile(edited)).valid).toBe(false);
    expect(await client.has('offline-export')).toBe(false); // a refused file is no evidence

    expect((await client.verifyMachineFile(machineFile)).valid).toBe(true);
    expect(await client.has('offline-export')).toBe(true);
    expect(await client.has('pro')).toBe(true);
    // Kept in the cache as it came and verified again when read: an edited copy there is no evidence.
    const dir = (client as unknown as { options: { cacheDir: string } }).options.cacheDir;
    const path = join(dir, readdirSync(dir).find((name) => name.endsWith('.json'))!);
    const kept = readFileSync(path, 'utf8');
    expect(kept).toContain(machineFile);
    writeFileSync(path, kept.replace(machineFile, edited));
    expect(await client.has('offline-export')).toBe(false);
    writeFileSync(path, kept);
    expect(await client.has('offline-export')).toBe(true);
    api.clock.advance(25 * HOUR); // past the file's day: the key alone speaks again
    expect(await client.has('offline-export')).toBe(false);
  });

  test('an edited answer in the cache file is no evidence: has() falls back to the key', async () => {
    const cacheDir = tempDir();
    const client = app({ cacheDir });
    const { license, licenseKey } = await s.grant();
    await client.storeLicenseKey(licenseKey);
    api.clock.advance(HOUR);
    await setEntitlements(license.id, ['sync']);
    await client.check({ online: true });
    expect(await client.has('sync')).toBe(true);

    const [name] = readdirSync(cacheDir).filter((f) => f.startsWith('license'));
    const path = join(cacheDir, name!);
    const file = JSON.parse(readFileSync(path, 'utf8'));
    const memory = file.licenses[license.id];
    memory.answer.text = memory.answer.text.replace('"sync"', '"cloud"');
    // The stored key is the old one again, so the key alone lacks sync and cloud.
    file.current.licenseKey = licenseKey;
    writeFileSync(path, JSON.stringify(file));

    const reopened = app({ cacheDir });
    expect(await reopened.has('cloud')).toBe(false);
    expect(await reopened.has('sync')).toBe(false);
    expect(await reopened.has('pro')).toBe(true);
  });

  test('after a signed refusal (revoked) the license holds nothing', async () => {
    const client = app();
    const { license, licenseKey } = await s.grant();
    await client.storeLicenseKey(licenseKey);
    expect(await client.has('pro')).toBe(true);
    api.clock.advance(HOUR);
    await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });

    expect(await client.check({ online: true })).toMatchObject({ valid: false, reason: 'revoked' });
    expect(await client.has('pro')).toBe(false);
  });
});

describe('check({ entitlements })', () => {
  test('online: a lacking code is not_found with missingEntitlements, remembered nowhere; held codes: valid', async () => {
    const client = app();
    const { license, licenseKey } = await s.grant();
    await client.storeLicenseKey(licenseKey);

    expect(await client.check({ entitlements: ['PRO', 'sync'] })).toEqual({ valid: false, reason: 'not_found', offlineVerified: false, missingEntitlements: ['sync'] });
    expect(await client.check()).toMatchObject({ valid: true });
    expect(await client.check({ entitlements: ['pro'] })).toMatchObject({ valid: true, offlineVerified: true });

    // Granted since: the cached evidence lacks it, so the service is asked, and the new key comes with it.
    api.clock.advance(HOUR);
    await setEntitlements(license.id, ['sync']);
    const granted = await client.check({ entitlements: ['sync'] });
    expect(granted).toMatchObject({ valid: true, offlineVerified: false, license: { features: ['pro', 'sync'] } });
    expect(granted.renewedLicenseKey).toEqual(expect.any(String));
  });

  test('offline: the missing codes from the verified key, offlineVerified', async () => {
    const cacheDir = tempDir();
    const { licenseKey } = await s.grant();
    await app({ cacheDir }).storeLicenseKey(licenseKey);
    const offline = app({ cacheDir, offline: true });

    expect(await offline.check({ entitlements: ['cloud', 'pro'] })).toMatchObject({ valid: false, reason: 'not_found', offlineVerified: true, missingEntitlements: ['cloud'] });
    expect(await offline.check({ entitlements: ['Pro'] })).toMatchObject({ valid: true, offlineVerified: true });
  });

  test('codes that are not codes: a TypeError before any request', async () => {
    const client = app();
    for (const entitlements of [['a\u0000'], [''], Array.from({ length: 101 }, (_, i) => `f${i}`), 'pro']) {
      expect(client.check({ entitlements: entitlements as string[] })).rejects.toThrow(TypeError);
    }
  });
});
