import { describe, expect, test } from 'bun:test';
import type { LicenseDetails } from '../../src/client/index.ts';
import { BASE_URL, clock, DAY, fakeFetch, FINGERPRINT, HOUR, json, NEVER_CONFIRMED, newClient, sellerKey, T0, tempDirs, unreachable, type Call } from './support.ts';

const tempDir = tempDirs();
const seller = sellerKey();
const VALID = { valid: true, license: { id: 'lic_1', status: 'active', features: ['pro'], expiresAt: null } };
const LICENSE: LicenseDetails = { id: 'lic_1', productId: 'prod_1', features: ['pro'], status: 'active', issuedAt: T0, expiresAt: null };

/** A stored key and a server whose answer the test changes as it goes. */
async function setup(options: { maxOfflineDays?: number } = {}) {
  const time = clock();
  let answer: (call: Call) => Response | Promise<Response> = (call) => seller.answer(call, VALID);
  const net = fakeFetch((call) => answer(call));
  const client = newClient({ publicKeys: seller.jwks, cacheDir: tempDir(), fetch: net.fetch, now: time.now, ...options });
  await client.storeLicenseKey(seller.issue());
  return { client, net, time, answer: (a: typeof answer) => void (answer = a) };
}

describe('check(), step 4: a cache older than 24 hours asks the server', () => {
  test('more than 24 hours after a refresh, a valid answer is returned and refreshes the cache', async () => {
    const { client, net, time } = await setup();
    await client.check();
    time.advance(DAY);

    const result = await client.check();

    expect(result).toEqual({ valid: true, license: LICENSE, offlineVerified: false, machineBound: true, machineFingerprint: FINGERPRINT });
    expect(net.calls).toHaveLength(2);
    expect(await client.needsRefresh()).toBe(false);
  });

  test('the request is POST /licenses/validate with X-API-Key and the key and fingerprint', async () => {
    const { client, net } = await setup();

    await client.check();

    expect(net.calls[0]).toMatchObject({
      method: 'POST',
      url: `${BASE_URL}/licenses/validate`,
      headers: { 'x-api-key': 'pk_test', 'content-type': 'application/json' },
      body: { licenseKey: await client.getCachedLicenseKey(), machineFingerprint: FINGERPRINT },
    });
  });

  test('an online revoked is believed, and cached: the next check within 24 hours says revoked without the network', async () => {
    const { client, net, time, answer } = await setup();
    answer((call) => seller.answer(call, { valid: false, reason: 'revoked' }));
    const online = await client.check();
    answer(unreachable);
    time.advance(DAY - 1);

    const cached = await client.check();

    expect(online).toEqual({ valid: false, reason: 'revoked', offlineVerified: false });
    expect(cached).toMatchObject({ valid: false, reason: 'revoked' });
    expect(net.calls).toHaveLength(1);
  });

  test('a revoked verdict survives a dead server after 24 hours: the server is asked, and is not there', async () => {
    const { client, net, time, answer } = await setup();
    answer((call) => seller.answer(call, { valid: false, reason: 'revoked' }));
    await client.check();
    answer(unreachable);
    time.advance(DAY);

    expect(await client.check()).toMatchObject({ valid: false, reason: 'revoked' });
    expect(net.calls).toHaveLength(2);
  });

  test('an online machine_mismatch is cached; after 24 hours the server is asked again (an unbind may have happened)', async () => {
    const { client, net, time, answer } = await setup();
    answer((call) => seller.answer(call, { valid: false, reason: 'machine_mismatch' }));
    const mismatch = await client.check();
    answer((call) => seller.answer(call, VALID));
    time.advance(DAY - 1);
    const cached = await client.check();
    time.advance(1);

    const later = await client.check();

    expect(mismatch).toEqual({ valid: false, reason: 'machine_mismatch', offlineVerified: false, machineBound: true });
    expect(cached).toMatchObject({ valid: false, reason: 'machine_mismatch' });
    expect(later).toMatchObject({ valid: true, machineBound: true, machineFingerprint: FINGERPRINT });
    expect(net.calls).toHaveLength(2);
  });
});

describe('check(), step 5: when the server cannot answer, the offline result stands', () => {
  const failures: [string, (call: Call) => Response | Promise<Response>][] = [
    ['a refused connection', unreachable],
    ['a timeout', () => Promise.reject(new DOMException('The operation timed out.', 'TimeoutError'))],
    ['a 503', () => json({ error: { code: 'unavailable', message: 'down' } }, 503)],
    ['a 429', () => json({ error: { code: 'rate_limited', message: 'slow down' } }, 429, { 'retry-after': '30' })],
  ];
  for (const [what, failure] of failures) {
    test(`${what} gives the offline valid result and leaves the cache due for refresh`, async () => {
      const { client, answer } = await setup();
      answer(failure);

      const result = await client.check();

      // Not a refusal (check-misconfigured.test.ts has those): only the note that the service never confirmed it here.
      expect(result).toEqual({ valid: true, license: LICENSE, offlineVerified: true, machineBound: false, warning: NEVER_CONFIRMED });
      expect(await client.needsRefresh()).toBe(true);
    });
  }

  test('a refused connection after a valid refresh keeps the known binding in the offline result', async () => {
    const { client, time, answer } = await setup();
    await client.check();
    answer(unreachable);
    time.advance(30 * DAY);

    expect(await client.check()).toEqual({ valid: true, license: LICENSE, offlineVerified: true, machineBound: true, machineFingerprint: FINGERPRINT });
  });

  test('every validation request carries an abort signal (the 10-second limit)', async () => {
    let signal: AbortSignal | null | undefined;
    const time = clock();
    const client = newClient({ publicKeys: seller.jwks, cacheDir: tempDir(), now: time.now, fetch: (async (_: unknown, init?: RequestInit) => ((signal = init?.signal), json(VALID))) as typeof fetch });
    await client.storeLicenseKey(seller.issue());

    await client.check();

    expect(signal).toBeInstanceOf(AbortSignal);
  });
});

describe('maxOfflineDays bounds the fallback', () => {
  test('the fallback holds up to maxOfflineDays after the last valid refresh, then gives network_error', async () => {
    const { client, time, answer } = await setup({ maxOfflineDays: 7 });
    await client.check();
    answer(unreachable);
    time.advance(7 * DAY);
    const within = await client.check();
    time.advance(1);

    const beyond = await client.check();

    expect(within).toMatchObject({ valid: true, offlineVerified: true });
    expect(beyond).toEqual({ valid: false, reason: 'network_error', offlineVerified: false });
  });

  test('a key never refreshed counts its offline days from when it was stored', async () => {
    const { client, time, answer } = await setup({ maxOfflineDays: 1 });
    answer(unreachable);
    time.advance(DAY + HOUR);

    expect(await client.check()).toEqual({ valid: false, reason: 'network_error', offlineVerified: false, warning: NEVER_CONFIRMED });
  });

  test('once the server answers again the license is valid again', async () => {
    const { client, time, answer } = await setup({ maxOfflineDays: 1 });
    answer(unreachable);
    time.advance(2 * DAY);
    await client.check();
    answer((call) => seller.answer(call, VALID));

    expect(await client.check()).toMatchObject({ valid: true, offlineVerified: false });
  });
});
