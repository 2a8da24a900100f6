import { describe, expect, test } from 'bun:test';
import { clock, DAY, fakeFetch, FINGERPRINT, NEVER_CONFIRMED, newClient, sellerKey, T0, tempDirs, unreachable, type Call } from './support.ts';

const tempDir = tempDirs();
const seller = sellerKey();
const OLD_END = T0 + 30 * DAY;
const NEW_END = T0 + 60 * DAY;
const held = seller.issue({ expiresAt: OLD_END });
const renewed = seller.issue({ expiresAt: NEW_END });
const validWith = (licenseKey?: string) => ({ valid: true, license: { id: 'lic_1', status: 'active', features: ['pro'], expiresAt: NEW_END, ...(licenseKey ? { licenseKey } : {}) } });

/** A client holding the 30-day key, and a server (signed answers) whose answer the test picks. */
async function holding(answer: (call: Call) => Response, start = T0) {
  const time = clock(start);
  const net = fakeFetch(answer);
  const cacheDir = tempDir();
  const client = newClient({ publicKeys: seller.jwks, cacheDir, fetch: net.fetch, now: time.now });
  await client.storeLicenseKey(held);
  return { client, net, time, cacheDir };
}

describe('check() picks up a renewed key handed over by the signed answer', () => {
  test('the new key replaces the stored one and the result is the new key’s', async () => {
    const { client } = await holding((call) => seller.answer(call, validWith(renewed)));

    const result = await client.check({ online: true });

    expect(result).toMatchObject({ valid: true, offlineVerified: false, renewedLicenseKey: renewed, license: { expiresAt: NEW_END } });
    expect(await client.getCachedLicenseKey()).toBe(renewed);
  });

  test('an answer without a key leaves the stored key alone', async () => {
    const { client } = await holding((call) => seller.answer(call, validWith()));

    const result = await client.check({ online: true });

    expect(result.renewedLicenseKey).toBeUndefined();
    expect(await client.getCachedLicenseKey()).toBe(held);
  });

  test('an expired key is expired without asking anyone (SPEC step 2), unless the check is online', async () => {
    // Signed at the server's time, which is this client's: the cached verdict is as old as that.
    const { client, net } = await holding((call) => seller.answer(call, validWith(renewed), { serverTime: OLD_END }), OLD_END);

    const offline = await client.check();
    const online = await client.check({ online: true });

    expect(offline).toEqual({ valid: false, reason: 'expired', offlineVerified: false });
    expect(net.calls).toHaveLength(1);
    expect(online).toMatchObject({ valid: true, offlineVerified: false, renewedLicenseKey: renewed, license: { expiresAt: NEW_END } });
    expect(await client.check()).toMatchObject({ valid: true, offlineVerified: true, license: { expiresAt: NEW_END } });
  });

  test('the next checks use the new key offline, past the old key’s expiry', async () => {
    const { client, time, cacheDir } = await holding((call) => seller.answer(call, validWith(renewed)));
    await client.check({ online: true });
    time.advance(40 * DAY);
    const offline = newClient({ publicKeys: seller.jwks, cacheDir, fetch: fakeFetch(unreachable).fetch, now: time.now });

    const result = await offline.check();

    expect(result).toMatchObject({ valid: true, offlineVerified: true, license: { expiresAt: NEW_END } });
    expect(await offline.getCachedLicenseKey()).toBe(renewed);
  });

  test('an expired key checked online that the server says is expired stays expired, and is remembered so', async () => {
    const { client } = await holding((call) => seller.answer(call, { valid: false, reason: 'expired' }), OLD_END);

    expect(await client.check({ online: true })).toEqual({ valid: false, reason: 'expired', offlineVerified: false });
    expect(await client.getCachedLicenseKey()).toBe(held);
  });

  test('a valid answer without a new key does not revive a key expired by this clock', async () => {
    const { client } = await holding((call) => seller.answer(call, validWith()), OLD_END);

    expect(await client.check({ online: true })).toMatchObject({ valid: false, reason: 'expired' });
  });

  test('an expired key checked online with the server unreachable is expired, as before', async () => {
    const { client } = await holding(unreachable, OLD_END);

    expect(await client.check({ online: true })).toEqual({ valid: false, reason: 'expired', offlineVerified: false, warning: NEVER_CONFIRMED });
  });
});

describe('check() ignores a key it cannot verify, with a warning', () => {
  const forgers = [
    ['another license', seller.issue({ id: 'lic_2', expiresAt: NEW_END })],
    ['another seller', seller.issue({ sub: 'dev_2', expiresAt: NEW_END })],
    ['a bad signature', `${renewed.slice(0, -6)}AAAAAA`],
    ['a key signed by someone else', sellerKey(seller.kid).issue({ expiresAt: NEW_END })],
    ['not a key', 'nonsense'],
  ] as const;

  for (const [what, offered] of forgers) {
    test(`${what}: the stored key stays and the check is the old key’s`, async () => {
      const { client } = await holding((call) => seller.answer(call, validWith(offered)));

      const result = await client.check({ online: true });

      expect(result).toMatchObject({ valid: true, machineFingerprint: FINGERPRINT, license: { expiresAt: OLD_END }, warning: { code: 'invalid_renewed_key' } });
      expect(result.renewedLicenseKey).toBeUndefined();
      expect(await client.getCachedLicenseKey()).toBe(held);
    });
  }

  test('an unsigned answer’s key is never looked at: the answer itself is refused', async () => {
    const { client } = await holding(() => new Response(JSON.stringify(validWith(renewed)), { headers: { 'content-type': 'application/json' } }));

    const result = await client.check({ online: true });

    expect(result.warning?.code).toBe('unverified_answer');
    expect(await client.getCachedLicenseKey()).toBe(held);
  });
});
