import { describe, expect, test } from 'bun:test';
import type { RateLimiter, RateLimitVerdict } from '../../src/ports/rate-limiter.ts';
import { sqliteDeps, testSettings } from '../support/deps.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { MINUTE } from './limiters.ts';

const validate = (api: TestApi, key: string, licenseKey: string, address = '198.51.100.1') =>
  api.call('POST', '/licenses/validate', { key, headers: { 'x-forwarded-for': address }, body: { licenseKey, machineFingerprint: 'machine-a' } });

/**
 * The HTTP app with at most `perLicense` validations per license and `junkPerAddress` validations of
 * keys naming no license per client address (taken from X-Forwarded-For, as behind a proxy), a seller and a license.
 */
async function limitedTo(perLicense: number, junkPerAddress = 2, rateLimiter?: RateLimiter) {
  const { deps } = sqliteDeps();
  const api = testApi({
    deps: {
      ...deps,
      settings: testSettings({
        validateRateLimitPerMinute: perLicense,
        addressLimits: { invalidValidationsPerMinute: junkPerAddress },
        trustedProxyHeader: 'x-forwarded-for',
      }),
      ...(rateLimiter && { rateLimiter }),
    },
  });
  const s = await seller(api);
  const { licenseKey } = await s.grant();
  return { api, s, licenseKey };
}

/** Answers validation hits with `verdict` and records their keys; lets the setup's sign-up through. */
function validationSpy(asked: string[], verdict: RateLimitVerdict): RateLimiter {
  return {
    hit: async (key, limit) => {
      if (!key.startsWith('validate:')) return { allowed: true, retryAfterSeconds: 0, remaining: limit };
      asked.push(key);
      return verdict;
    },
  };
}

async function validateTimes(api: TestApi, key: string, licenseKey: string, times: number, address?: string) {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await validate(api, key, licenseKey, address)).status);
  return statuses;
}

describe('POST /licenses/validate: the per-license rate limit', () => {
  test('past the limit (3 a minute) the 4th validation of a license is 429 rate_limited with Retry-After in seconds', async () => {
    const { api, s, licenseKey } = await limitedTo(3);
    await validateTimes(api, s.publishableKey, licenseKey, 3);
    api.clock.advance(20_000);

    const fourth = await validate(api, s.publishableKey, licenseKey);

    expect(fourth.status).toBe(429);
    expect(fourth.headers.get('retry-after')).toBe('40');
    expect(fourth.body.error).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('3 a minute') });
  });

  test('another license of the same seller is not affected by one license past its limit', async () => {
    const { api, s, licenseKey } = await limitedTo(3);
    const other = (await s.grant()).licenseKey;
    await validateTimes(api, s.publishableKey, licenseKey, 4);

    const statuses = await validateTimes(api, s.publishableKey, other, 3);

    expect(statuses).toEqual([200, 200, 200]);
  });

  test('the limit is the license’s, whichever key, instance address or machine asks', async () => {
    const { api, s, licenseKey } = await limitedTo(3);
    await validate(api, s.publishableKey, licenseKey, '198.51.100.1');
    await validate(api, s.apiKey, licenseKey, '198.51.100.2');
    await validate(api, s.publishableKey, licenseKey, '198.51.100.3');

    const fourth = await validate(api, s.apiKey, licenseKey, '198.51.100.4');

    expect(fourth.status).toBe(429);
  });

  test('after the window the license may validate again', async () => {
    const { api, s, licenseKey } = await limitedTo(3);
    const first = await validateTimes(api, s.publishableKey, licenseKey, 4);

    api.clock.advance(MINUTE);
    const next = await validate(api, s.publishableKey, licenseKey);

    expect(first).toEqual([200, 200, 200, 429]);
    expect(next.status).toBe(200);
    expect(next.body.valid).toBe(true);
  });

  test('a revoked license counts against its license too (its key is genuine)', async () => {
    const { api, s } = await limitedTo(2, 100);
    const { license, licenseKey } = await s.grant();
    await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });

    const replies = [];
    for (let i = 0; i < 3; i++) replies.push(await validate(api, s.publishableKey, licenseKey, `198.51.100.${i}`));

    expect(replies.map((r) => [r.status, r.body.reason ?? r.body.error?.code])).toEqual([
      [200, 'revoked'],
      [200, 'revoked'],
      [429, 'rate_limited'],
    ]);
  });
});

describe('POST /licenses/validate: keys that name no license of the caller are counted per client address', () => {
  test('past the per-address limit, more junk from that address is 429; valid licenses from it still validate', async () => {
    const { api, s, licenseKey } = await limitedTo(3, 2);

    const junk = await validateTimes(api, s.publishableKey, 'not-a-license-key', 3, '203.0.113.7');
    const valid = await validate(api, s.publishableKey, licenseKey, '203.0.113.7');

    expect(junk).toEqual([200, 200, 429]);
    expect(valid.status).toBe(200);
    expect(valid.body.valid).toBe(true);
  });

  test('junk from one address does not limit junk from another', async () => {
    const { api, s } = await limitedTo(3, 2);
    await validateTimes(api, s.publishableKey, 'not-a-license-key', 5, '203.0.113.7');

    const other = await validateTimes(api, s.publishableKey, 'not-a-license-key', 2, '203.0.113.8');

    expect(other).toEqual([200, 200]);
  });

  test('another seller’s genuine key counts as junk for this caller (not_found), never against that license', async () => {
    const { api, s } = await limitedTo(2, 2);
    const other = await seller(api);
    const othersKey = (await other.grant()).licenseKey;

    const withWrongSeller = await validateTimes(api, s.publishableKey, othersKey, 3, '203.0.113.7');
    const byItsOwner = await validateTimes(api, other.publishableKey, othersKey, 2, '203.0.113.7');

    expect(withWrongSeller).toEqual([200, 200, 429]);
    expect(byItsOwner).toEqual([200, 200]);
  });

  test('a request without a valid key is 401 and counts against no one', async () => {
    const { api, s, licenseKey } = await limitedTo(1, 1);
    await validateTimes(api, 'pk_test_unknown', licenseKey, 3);

    const own = await validate(api, s.publishableKey, licenseKey);

    expect(own.status).toBe(200);
  });

  test('limits of 0 turn both off: the limiter is never asked', async () => {
    const asked: string[] = [];
    const spy = validationSpy(asked, { allowed: false, retryAfterSeconds: 1, remaining: 0 });
    const { api, s, licenseKey } = await limitedTo(0, 0, spy);

    const statuses = [...(await validateTimes(api, s.publishableKey, licenseKey, 3)), ...(await validateTimes(api, s.publishableKey, 'junk', 3))];

    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    expect(asked).toEqual([]);
  });

  test('one hit per validation, keyed by the license id or the address, never by the raw key', async () => {
    const asked: string[] = [];
    const spy = validationSpy(asked, { allowed: true, retryAfterSeconds: 0, remaining: 1 });
    const { api, s, licenseKey } = await limitedTo(10, 10, spy);
    const valid = await validate(api, s.publishableKey, licenseKey);

    await validate(api, s.apiKey, 'junk', '203.0.113.7');

    expect(asked).toEqual([`validate:license:${valid.body.license.id}`, 'validate:address:203.0.113.7']);
  });

  test('the OpenAPI document lists 429 for validation', async () => {
    const { api } = await limitedTo(3);

    const doc = await api.call('GET', '/openapi.json');

    expect(Object.keys(doc.body.paths['/v1/licenses/validate'].post.responses)).toContain('429');
  });
});
