import { describe, expect, test } from 'bun:test';
import { clock, DAY, fakeFetch, FINGERPRINT, HOUR, json, newClient, sellerKey, T0, tempDirs, unreachable } from './support.ts';

const tempDir = tempDirs();
const seller = sellerKey();

/** A client whose every request is recorded and would fail. */
function setup(start = T0) {
  const time = clock(start);
  const net = fakeFetch(unreachable);
  const dir = tempDir();
  const client = newClient({ publicKeys: seller.jwks, cacheDir: dir, fetch: net.fetch, now: time.now });
  return { client, net, time, dir };
}

describe('check(), steps 1 and 2: what the key itself proves, without the server', () => {
  test('no stored key is invalid with not_found, and asks nobody', async () => {
    const { client, net } = setup();

    const result = await client.check();

    expect(result).toEqual({ valid: false, reason: 'not_found', offlineVerified: false });
    expect(net.calls).toHaveLength(0);
  });

  test('a key whose signature does not match its claims is invalid_signature, and asks nobody', async () => {
    const { client, net } = setup();
    const [header, , signature] = seller.issue().split('.');
    const [, otherClaims] = seller.issue({ features: ['pro', 'enterprise'] }).split('.');
    await client.storeLicenseKey(`${header}.${otherClaims}.${signature}`);

    const result = await client.check();

    expect(result).toEqual({ valid: false, reason: 'invalid_signature', offlineVerified: false });
    expect(net.calls).toHaveLength(0);
  });

  test('a key signed by a kid missing from publicKeys is invalid_signature', async () => {
    const { client } = setup();
    await client.storeLicenseKey(sellerKey().issue());

    expect(await client.check()).toEqual({ valid: false, reason: 'invalid_signature', offlineVerified: false });
  });

  test('a key is expired from the millisecond of its expiresAt, and asks nobody', async () => {
    const { client, net, time } = setup();
    await client.storeLicenseKey(seller.issue({ expiresAt: T0 + DAY }));
    time.advance(DAY - 1);
    const before = await client.check();
    time.advance(1);
    net.calls.length = 0;

    const at = await client.check();

    expect(before.valid).toBe(true);
    expect(at).toEqual({ valid: false, reason: 'expired', offlineVerified: false });
    expect(net.calls).toHaveLength(0);
  });

  test('a cache bound to another machine is machine_mismatch offline, and asks nobody', async () => {
    const { client: first, dir, time } = setup();
    const online = fakeFetch((call) => seller.answer(call, { valid: true, license: { id: 'lic_1', status: 'active', features: ['pro'], expiresAt: null } }));
    const bound = newClient({ publicKeys: seller.jwks, cacheDir: dir, fetch: online.fetch, now: time.now });
    await first.storeLicenseKey(seller.issue());
    await bound.check();
    const net = fakeFetch(unreachable);
    const other = newClient({ publicKeys: seller.jwks, cacheDir: dir, fetch: net.fetch, now: time.now, fingerprint: 'b'.repeat(64) });

    const result = await other.check();

    expect(result).toEqual({ valid: false, reason: 'machine_mismatch', offlineVerified: false, machineBound: true, machineFingerprint: FINGERPRINT });
    expect(net.calls).toHaveLength(0);
  });
});

describe('check(), step 3: a cache refreshed less than 24 hours ago answers alone', () => {
  test('23:59:59.999 after a valid refresh the cached valid result comes back without a network call', async () => {
    const { client, net, dir, time } = setup();
    const online = fakeFetch((call) => seller.answer(call, { valid: true, license: { id: 'lic_1', status: 'active', features: ['pro'], expiresAt: null } }));
    await newClient({ publicKeys: seller.jwks, cacheDir: dir, fetch: online.fetch, now: time.now }).storeLicenseKey(seller.issue());
    await newClient({ publicKeys: seller.jwks, cacheDir: dir, fetch: online.fetch, now: time.now }).check();
    time.advance(DAY - 1);

    const result = await client.check();

    expect(net.calls).toHaveLength(0);
    expect(result).toEqual({
      valid: true,
      offlineVerified: true,
      machineBound: true,
      machineFingerprint: FINGERPRINT,
      license: { id: 'lic_1', productId: 'prod_1', features: ['pro'], status: 'active', issuedAt: T0, expiresAt: null },
    });
  });

  test('needsRefresh is true before any refresh, false within 24 hours of one, true again at 24 hours', async () => {
    const { dir, time } = setup();
    const online = fakeFetch((call) => seller.answer(call, { valid: true, license: { id: 'lic_1', status: 'active', features: ['pro'], expiresAt: null } }));
    const client = newClient({ publicKeys: seller.jwks, cacheDir: dir, fetch: online.fetch, now: time.now });
    await client.storeLicenseKey(seller.issue());
    const never = await client.needsRefresh();
    await client.check();
    time.advance(DAY - 1);
    const fresh = await client.needsRefresh();
    time.advance(1);

    expect([never, fresh, await client.needsRefresh()]).toEqual([true, false, true]);
  });

  test('a key is looked at afresh on every check: one expiring inside the 24 hours is expired despite the cache', async () => {
    const { dir, time } = setup();
    const online = fakeFetch((call) => seller.answer(call, { valid: true, license: { id: 'lic_1', status: 'active', features: ['pro'], expiresAt: T0 + HOUR } }));
    const client = newClient({ publicKeys: seller.jwks, cacheDir: dir, fetch: online.fetch, now: time.now });
    await client.storeLicenseKey(seller.issue({ expiresAt: T0 + HOUR }));
    await client.check();
    time.advance(HOUR);

    expect(await client.check()).toEqual({ valid: false, reason: 'expired', offlineVerified: false });
    expect(online.calls).toHaveLength(1);
  });
});
