import { describe, expect, test } from 'bun:test';
import { linkSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultCacheDir } from '../../src/client/cache-location.ts';
import { clock, fakeFetch, json, newClient, sellerKey, T0, tempDirs, unreachable } from './support.ts';

const tempDir = tempDirs();
const seller = sellerKey();
const mode = (path: string) => statSync(path).mode & 0o777;

describe('the cache file', () => {
  test('is one JSON file, mode 0600, in a folder created with mode 0700', async () => {
    const dir = join(tempDir(), 'my-app');
    const client = newClient({ publicKeys: seller.jwks, cacheDir: dir, fetch: fakeFetch((call) => seller.answer(call, { valid: true, license: { id: 'lic_1' } })).fetch, now: clock().now });
    await client.storeLicenseKey(seller.issue());
    await client.check();

    expect(readdirSync(dir)).toEqual(['license.json']);
    expect(mode(join(dir, 'license.json'))).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    const key = await client.getCachedLicenseKey();
    expect(JSON.parse(readFileSync(join(dir, 'license.json'), 'utf8'))).toEqual({
      version: 2,
      current: { licenseKey: key, license: { id: 'lic_1', productId: 'prod_1', features: ['pro'], status: 'active', issuedAt: T0, expiresAt: null }, machineBound: true, machineFingerprint: await client.fingerprint() },
      // The signed answer itself, verified again on every load (docs/client.md).
      licenses: { lic_1: { firstStoredAt: T0, answer: { signature: expect.stringMatching(/^[\w-]+\.\.[\w-]+$/), text: expect.any(String), nonce: expect.any(String), receivedAt: T0 } } },
      serverTime: T0,
    });
  });

  test('is replaced by rename, never rewritten in place: concurrent writers and a reader never see half a file', async () => {
    const dir = tempDir();
    const clients = [0, 1, 2].map(() => newClient({ publicKeys: seller.jwks, cacheDir: dir }));
    await clients[0]!.storeLicenseKey(seller.issue());
    const first = readFileSync(join(dir, 'license.json'), 'utf8');
    // A second name for the first file keeps its inode alive: a rewrite in place would show through it.
    const keep = join(tempDir(), 'first.json');
    linkSync(join(dir, 'license.json'), keep);
    const seen: unknown[] = [];
    let writing = true;
    const reader = (async () => {
      while (writing) {
        seen.push(JSON.parse(readFileSync(join(dir, 'license.json'), 'utf8')).current.licenseKey);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();

    await Promise.all(Array.from({ length: 60 }, (_, i) => clients[i % 3]!.storeLicenseKey(seller.issue({ id: `lic_${i}` }))));
    writing = false;
    await reader;

    expect(readFileSync(keep, 'utf8')).toBe(first);
    expect(statSync(join(dir, 'license.json')).ino).not.toBe(statSync(keep).ino);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((key) => typeof key === 'string')).toBe(true);
    expect(readdirSync(dir)).toEqual(['license.json']);
  });

  test('a corrupt file is an empty cache: nothing throws, check says not_found', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'license.json'), '{"version":1,"licenseKey":');
    const client = newClient({ publicKeys: seller.jwks, cacheDir: dir, fetch: fakeFetch(unreachable).fetch });

    expect(await client.getCachedLicenseKey()).toBeNull();
    expect(await client.needsRefresh()).toBe(true);
    expect(await client.check()).toEqual({ valid: false, reason: 'not_found', offlineVerified: false });
  });

  test('a well-formed file of the wrong shape is an empty cache too', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'license.json'), JSON.stringify([{ licenseKey: 42 }]));

    expect(await newClient({ publicKeys: seller.jwks, cacheDir: dir }).getCachedLicenseKey()).toBeNull();
  });

  test('clearCache removes the key, keeps what this machine learnt of its license; a second clear is harmless', async () => {
    const dir = tempDir();
    const client = newClient({ publicKeys: seller.jwks, cacheDir: dir });
    await client.storeLicenseKey(seller.issue());

    await client.clearCache();
    await client.clearCache();

    expect(await client.getCachedLicenseKey()).toBeNull();
    expect(JSON.parse(readFileSync(join(dir, 'license.json'), 'utf8'))).toMatchObject({ current: null, licenses: { lic_1: { firstStoredAt: expect.any(Number) } } });
  });
});

describe('where the cache lives without cacheDir', () => {
  const join = (...parts: string[]) => parts.join('/');
  const where = (platform: string, env: Record<string, string> = {}) => defaultCacheDir({ appName: 'Acme Editor', platform, home: '/home/ada', env, join });

  test('Linux: $XDG_DATA_HOME/<appName>, or ~/.local/share/<appName> (a relative XDG_DATA_HOME is ignored)', () => {
    expect(where('linux', { XDG_DATA_HOME: '/data' })).toBe('/data/Acme Editor');
    expect(where('linux')).toBe('/home/ada/.local/share/Acme Editor');
    expect(where('linux', { XDG_DATA_HOME: 'relative' })).toBe('/home/ada/.local/share/Acme Editor');
  });

  test('macOS: ~/Library/Application Support/<appName>', () => {
    expect(where('darwin')).toBe('/home/ada/Library/Application Support/Acme Editor');
  });

  test('Windows: %APPDATA%\\<appName>', () => {
    expect(where('win32', { APPDATA: 'C:/Users/ada/AppData/Roaming' })).toBe('C:/Users/ada/AppData/Roaming/Acme Editor');
  });

  test('a client with only appName writes under $XDG_DATA_HOME on this Linux machine', async () => {
    const data = tempDir();
    const saved = process.env.XDG_DATA_HOME;
    process.env.XDG_DATA_HOME = data;
    try {
      const client = newClient({ publicKeys: seller.jwks, cacheDir: undefined, appName: 'acme-editor' });
      await client.storeLicenseKey(seller.issue());
    } finally {
      if (saved === undefined) delete process.env.XDG_DATA_HOME;
      else process.env.XDG_DATA_HOME = saved;
    }

    expect(readdirSync(join(data, 'acme-editor'))).toEqual(['license.json']);
  });
});

describe('manual license management', () => {
  test('storeLicenseKey refuses what is not a license key, and keeps what was stored', async () => {
    const client = newClient({ publicKeys: seller.jwks, cacheDir: tempDir() });
    const key = seller.issue();
    await client.storeLicenseKey(key);

    const error = await client.storeLicenseKey('not-a-key').catch((e) => e);

    expect(error).toBeInstanceOf(TypeError);
    expect(await client.getCachedLicenseKey()).toBe(key);
  });

  test('storing a key of another license starts with no verdict: the next check asks the server', async () => {
    const net = fakeFetch((call) => seller.answer(call, { valid: false, reason: 'revoked' }));
    const client = newClient({ publicKeys: seller.jwks, cacheDir: tempDir(), fetch: net.fetch, now: clock().now });
    await client.storeLicenseKey(seller.issue());
    await client.check();

    await client.storeLicenseKey(seller.issue({ id: 'lic_2' }));

    expect(await client.needsRefresh()).toBe(true);
    await client.check();
    expect(net.calls).toHaveLength(2);
  });

  test('extractLicenseInfo reads the claims without verifying them, and is null for junk', () => {
    const client = newClient({ publicKeys: { keys: [] }, cacheDir: tempDir(), now: clock(T0 + 10).now });

    expect(client.extractLicenseInfo(seller.issue({ expiresAt: T0 + 5 }))).toEqual({
      id: 'lic_1', productId: 'prod_1', features: ['pro'], status: 'expired', issuedAt: T0, expiresAt: T0 + 5,
    });
    expect(client.extractLicenseInfo('a.b.c')).toBeNull();
    expect(client.extractLicenseInfo('')).toBeNull();
  });
});
