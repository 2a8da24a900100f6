import { describe, expect, test } from 'bun:test';
import { ApiError, type LicenseDetails } from '../../src/client/index.ts';
import { normalizeBaseUrl } from '../../src/client/base-url.ts';
import { clock, DAY, fakeFetch, FINGERPRINT, json, NEVER_CONFIRMED, newClient, sellerKey, tempDirs, unreachable, type Call } from './support.ts';

const tempDir = tempDirs();
const seller = sellerKey();
const VALID = { valid: true, license: { id: 'lic_1', status: 'active', features: ['pro'], expiresAt: null } };
const LICENSE: LicenseDetails = { id: 'lic_1', productId: 'prod_1', features: ['pro'], status: 'active', issuedAt: Date.UTC(2026, 0, 1), expiresAt: null };
const OFFLINE_VALID = { valid: true as const, license: LICENSE, offlineVerified: true, machineBound: false };

async function setup(options: { maxOfflineDays?: number; baseUrl?: string } = {}) {
  const time = clock();
  const errors: ApiError[] = [];
  let answer: (call: Call) => Response | Promise<Response> = (call) => seller.answer(call, VALID);
  const net = fakeFetch((call) => answer(call));
  const client = newClient({ publicKeys: seller.jwks, cacheDir: tempDir(), fetch: net.fetch, now: time.now, onError: (e) => errors.push(e), ...options });
  await client.storeLicenseKey(seller.issue());
  return { client, net, time, errors, answer: (a: typeof answer) => void (answer = a) };
}

describe('misconfiguration is not silence: a refused validation warns, the offline result stands', () => {
  const refusals: [string, () => Response, { status: number; code: string }][] = [
    ['a wrong publishable key (401)', () => json({ error: { code: 'unauthorized', message: 'Unknown API key.' } }, 401), { status: 401, code: 'unauthorized' }],
    ['a key without the scope (403)', () => json({ error: { code: 'forbidden', message: 'Not for this key.' } }, 403), { status: 403, code: 'forbidden' }],
    ['a wrong base URL (404)', () => json({ error: { code: 'not_found', message: 'No such route.' } }, 404), { status: 404, code: 'not_found' }],
    ['a 200 that is not a verdict (not the service)', () => new Response('<html>home page</html>', { status: 200 }), { status: 200, code: 'invalid_response' }],
  ];
  for (const [what, refusal, expected] of refusals) {
    test(`${what}: valid offline, with a warning and one onError call, asked again next time`, async () => {
      const { client, net, errors, answer } = await setup();
      answer(refusal);

      const first = await client.check();
      const second = await client.check();

      expect(first).toEqual({ ...OFFLINE_VALID, warning: { ...expected, message: expect.any(String) } });
      expect(second.warning).toMatchObject(expected);
      expect(net.calls).toHaveLength(2);
      const reported = { apiError: true, status: expected.status, code: expected.code };
      expect(errors.map((e) => ({ apiError: e instanceof ApiError, status: e.status, code: e.code }))).toEqual([reported, reported]);
    });
  }

  test('the warning carries the service’s own message', async () => {
    const { client, answer } = await setup();
    answer(() => json({ error: { code: 'unauthorized', message: 'Unknown API key.' } }, 401));

    expect((await client.check()).warning).toEqual({ status: 401, code: 'unauthorized', message: 'Unknown API key.' });
  });

  test('passing failures (unreachable, 503, 429) call onError and add no refusal: only the note that the service never confirmed the license', async () => {
    const { client, errors, answer } = await setup();
    const results = [];
    for (const failure of [unreachable, () => json({ error: { code: 'unavailable', message: 'down' } }, 503), () => json({ error: { code: 'rate_limited', message: 'later' } }, 429)]) {
      answer(failure);
      results.push(await client.check());
    }

    const never = { ...OFFLINE_VALID, warning: NEVER_CONFIRMED };
    expect(results).toEqual([never, never, never]);
    expect(errors.map((e) => `${e.status} ${e.code}`)).toEqual(['0 network_error', '503 unavailable', '429 rate_limited']);
  });

  test('an onError that throws does not break the check', async () => {
    const client = newClient({ publicKeys: seller.jwks, cacheDir: tempDir(), fetch: fakeFetch(unreachable).fetch, onError: () => { throw new Error('logger down'); } });
    await client.storeLicenseKey(seller.issue());

    expect(await client.check()).toMatchObject({ valid: true, offlineVerified: true });
  });

  test('a refusal never confirms the key: maxOfflineDays after storing it, the check fails', async () => {
    const { client, time, answer } = await setup({ maxOfflineDays: 30 });
    answer(() => json({ error: { code: 'unauthorized', message: 'Unknown API key.' } }, 401));
    time.advance(30 * DAY + 1);

    expect(await client.check()).toMatchObject({ valid: false, reason: 'network_error', warning: { status: 401 } });
  });

  test('a valid answer carries no warning', async () => {
    const { client, errors } = await setup();

    expect((await client.check()).warning).toBeUndefined();
    expect(errors).toEqual([]);
  });
});

describe('baseUrl is normalized as the CLI’s --api-url: /v1 added when missing', () => {
  test.each([
    ['http://licensing.test', 'http://licensing.test/v1'],
    ['http://licensing.test/', 'http://licensing.test/v1'],
    ['http://licensing.test/v1/', 'http://licensing.test/v1'],
    ['  https://host:8443/api  ', 'https://host:8443/api/v1'],
    ['https://host/v1?x=1#top', 'https://host/v1'],
    ['/licensing', '/licensing/v1'],
  ])('%p → %p', (raw, normalized) => {
    expect(normalizeBaseUrl(raw)).toBe(normalized);
  });

  test('a base URL without /v1 still reaches POST /v1/licenses/validate and binds', async () => {
    const { client, net } = await setup({ baseUrl: 'http://licensing.test' });

    const result = await client.check();

    expect(net.calls[0]!.url).toBe('http://licensing.test/v1/licenses/validate');
    expect(result).toMatchObject({ valid: true, offlineVerified: false, machineBound: true, machineFingerprint: FINGERPRINT });
  });

  test('something that is not an http(s) URL is refused when the client is made', () => {
    expect(() => newClient({ publicKeys: seller.jwks, cacheDir: tempDir(), baseUrl: 'licensing.example.com' })).toThrow(/baseUrl must be a URL/);
    expect(() => newClient({ publicKeys: seller.jwks, cacheDir: tempDir(), baseUrl: 'ftp://host/v1' })).toThrow(/http\(s\)/);
  });
});

describe('check({ online: true }) asks the server now', () => {
  test('within the 24-hour cache the server is asked anyway, and its verdict wins', async () => {
    const { client, net, answer } = await setup();
    await client.check();
    answer((call) => seller.answer(call, { valid: false, reason: 'revoked' }));

    const cached = await client.check();
    const forced = await client.check({ online: true });

    expect(cached).toMatchObject({ valid: true, offlineVerified: true });
    expect(forced).toEqual({ valid: false, reason: 'revoked', offlineVerified: false });
    expect(net.calls).toHaveLength(2);
  });

  test('a cache that names another machine is asked about too: after an unbind this machine binds', async () => {
    const { client, net, answer } = await setup();
    answer((call) => seller.answer(call, { valid: false, reason: 'machine_mismatch' }));
    await client.check();
    answer((call) => seller.answer(call, VALID));

    const forced = await client.check({ online: true });

    expect(forced).toMatchObject({ valid: true, machineBound: true, machineFingerprint: FINGERPRINT });
    expect(net.calls).toHaveLength(2);
  });

  test('unreachable, it is the offline result, with what the server said last still standing', async () => {
    const { client, answer, errors } = await setup();
    answer((call) => seller.answer(call, { valid: false, reason: 'revoked' }));
    await client.check();
    answer(unreachable);

    expect(await client.check({ online: true })).toMatchObject({ valid: false, reason: 'revoked' });
    expect(errors.map((e) => e.code)).toEqual(['network_error']);
  });

  test('a cache bound to another machine stays machine_mismatch when the server cannot be asked', async () => {
    const cacheDir = tempDir();
    const bind = newClient({ publicKeys: seller.jwks, cacheDir, fetch: fakeFetch((call) => seller.answer(call, VALID)).fetch });
    await bind.storeLicenseKey(seller.issue());
    await bind.check();
    const other = newClient({ publicKeys: seller.jwks, cacheDir, fetch: fakeFetch(unreachable).fetch, fingerprint: 'b'.repeat(64) });

    expect(await other.check({ online: true })).toMatchObject({ valid: false, reason: 'machine_mismatch', machineFingerprint: FINGERPRINT });
  });
});
