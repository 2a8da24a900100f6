import { beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LicenseClient, type Jwks } from '../../src/client/index.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { clock, DAY, fakeFetch, HOUR, NEVER_CONFIRMED, newClient, sellerKey, T0, tempDirs, unreachable, type Call } from './support.ts';

const tempDir = tempDirs();

describe('a revocation seen online survives re-entering the key offline (the real service)', () => {
  let api: TestApi;
  let s: Awaited<ReturnType<typeof seller>>;
  let jwks: Jwks;
  beforeAll(async () => {
    api = testApi();
    s = await seller(api);
    jwks = (await api.call('GET', `/developers/${s.id}/jwks.json`)).body;
  });

  /** The application, with the licensing host reachable or blocked. */
  const app = (cacheDir: string, blocked: boolean, maxOfflineDays?: number) =>
    new LicenseClient({
      baseUrl: 'http://localhost/v1', apiKey: s.publishableKey, productId: s.product.id, publicKeys: jwks, fingerprint: 'd'.repeat(64), cacheDir, now: () => api.clock.now(), maxOfflineDays,
      fetch: fakeFetch((call) => (blocked ? unreachable() : api.app.handle(new Request(call.url, { method: call.method, headers: call.headers, body: JSON.stringify(call.body) })))).fetch,
    });

  test('bought, revoked, host blocked: the same key typed in again, after clearCache too, stays revoked', async () => {
    const { license, licenseKey } = await s.grant();
    const cacheDir = tempDir();
    const online = app(cacheDir, false);
    await online.storeLicenseKey(licenseKey);
    expect(await online.check()).toMatchObject({ valid: true });
    await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });
    expect(await online.check({ online: true })).toMatchObject({ valid: false, reason: 'revoked' });

    const blocked = app(cacheDir, true, 30);
    await blocked.storeLicenseKey(licenseKey);
    const reentered = await blocked.check();
    api.clock.advance(3 * DAY);
    await blocked.clearCache();
    await blocked.storeLicenseKey(licenseKey);
    const cleared = await blocked.check();

    expect(reentered).toMatchObject({ valid: false, reason: 'revoked' });
    expect(cleared).toMatchObject({ valid: false, reason: 'revoked' });
  });
});

describe('what the client remembers of a license (signed answers)', () => {
  const seller1 = sellerKey();
  const VALID = { valid: true, license: { id: 'lic_1', status: 'active', features: ['pro'], expiresAt: null } };
  const REVOKED = { valid: false, reason: 'revoked' };

  /** A client whose server answers what `reply` says at the client's current time (null: unreachable). */
  function setup(options: { maxOfflineDays?: number; cacheDir?: string } = {}) {
    const time = clock();
    const server = { reply: null as unknown };
    const net = fakeFetch((call: Call) => (server.reply === null ? unreachable() : seller1.answer(call, server.reply, { serverTime: time.now() })));
    const cacheDir = options.cacheDir ?? tempDir();
    const client = newClient({ publicKeys: seller1.jwks, cacheDir, fetch: net.fetch, now: time.now, maxOfflineDays: options.maxOfflineDays });
    return { client, time, server, net, cacheDir, file: join(cacheDir, 'license.json') };
  }

  test('another key of the same license does not lift a revocation; a newer valid answer does', async () => {
    const { client, server } = setup();
    await client.storeLicenseKey(seller1.issue());
    server.reply = REVOKED;
    await client.check();
    server.reply = null;

    await client.storeLicenseKey(seller1.issue({ features: ['pro', 'extra'] }));
    const other = await client.check({ online: true });
    server.reply = VALID;
    const lifted = await client.check({ online: true });

    expect(other).toMatchObject({ valid: false, reason: 'revoked' });
    expect(lifted).toMatchObject({ valid: true, offlineVerified: false });
  });

  test('the offline allowance counts from the first time the license was stored here, not the last', async () => {
    const { client, time } = setup({ maxOfflineDays: 30 });
    await client.storeLicenseKey(seller1.issue());
    time.advance(29 * DAY);
    await client.storeLicenseKey(seller1.issue());
    time.advance(2 * DAY);

    expect(await client.check()).toEqual({ valid: false, reason: 'network_error', offlineVerified: false, warning: NEVER_CONFIRMED });
  });

  test('a check that never reached the service says so; once it has, the offline answer carries no warning', async () => {
    const { client, time, server } = setup();
    await client.storeLicenseKey(seller1.issue());
    const never = await client.check();
    server.reply = VALID;
    await client.check();
    server.reply = null;
    time.advance(2 * DAY);
    await client.storeLicenseKey(seller1.issue());

    expect(never).toMatchObject({ valid: true, offlineVerified: true, warning: NEVER_CONFIRMED });
    expect((await client.check()).warning).toBeUndefined();
  });

  test('a cache written by version 1 keeps its key, and its revocation, though nothing in it was signed', async () => {
    const { client, cacheDir } = setup();
    const key = seller1.issue();
    const license = { id: 'lic_1', productId: 'prod_1', features: ['pro'], status: 'revoked', issuedAt: T0, expiresAt: null };
    const v1 = { version: 1, licenseKey: key, storedAt: T0, refreshedAt: T0, lastValidAt: null, license, machineBound: true, machineFingerprint: null, verdict: { valid: false, reason: 'revoked' }, serverTime: T0 };
    writeFileSync(join(cacheDir, 'license.json'), JSON.stringify(v1));

    expect(await client.getCachedLicenseKey()).toBe(key);
    expect(await client.check()).toMatchObject({ valid: false, reason: 'revoked' });
  });

  describe('an edited cache is worth no more than a deleted one', () => {
    /** Revoked online, then the host blocked: the file edited by `edit`, or deleted and the key typed in again. */
    async function revokedThen(edit: (file: any) => void) {
      const key = seller1.issue();
      const edited = setup();
      await edited.client.storeLicenseKey(key);
      edited.server.reply = REVOKED;
      await edited.client.check();
      edited.server.reply = null;
      const contents = JSON.parse(readFileSync(edited.file, 'utf8'));
      edit(contents);
      writeFileSync(edited.file, JSON.stringify(contents));

      const deleted = setup();
      await deleted.client.storeLicenseKey(key);
      deleted.server.reply = REVOKED;
      await deleted.client.check();
      deleted.server.reply = null;
      rmSync(deleted.file);
      await deleted.client.storeLicenseKey(key);

      return { edited: await edited.client.check(), deleted: await deleted.client.check() };
    }

    test('a revoked verdict edited to valid: the signature no longer holds, the answer counts as none', async () => {
      const { edited, deleted } = await revokedThen((file) => {
        file.licenses.lic_1.answer.text = JSON.stringify(VALID);
      });

      expect(deleted).toEqual({ valid: true, license: expect.any(Object), offlineVerified: true, machineBound: false, warning: NEVER_CONFIRMED });
      expect(edited).toEqual(deleted);
    });

    test('an answer copied from another license or another machine counts as none', async () => {
      const { edited, deleted } = await revokedThen((file) => {
        file.licenses.lic_1.answer.nonce = 'x'.repeat(24);
      });

      expect(edited).toEqual(deleted);
    });

    test('a server time or receipt time moved forward does not keep a valid verdict fresh past 24 hours of the signed time', async () => {
      const { client, time, server, file, net } = setup();
      await client.storeLicenseKey(seller1.issue());
      server.reply = VALID;
      await client.check();
      const contents = JSON.parse(readFileSync(file, 'utf8'));
      contents.licenses.lic_1.answer.receivedAt = T0 + 365 * DAY;
      contents.serverTime = T0 + 365 * DAY;
      writeFileSync(file, JSON.stringify(contents));
      time.advance(25 * HOUR);

      await client.check();

      expect(net.calls).toHaveLength(2);
    });
  });
});
