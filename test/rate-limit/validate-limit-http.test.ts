import { describe, expect, test } from 'bun:test';
import type { RateLimiter } from '../../src/ports/rate-limiter.ts';
import { sqliteDeps } from '../support/deps.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { MINUTE } from './limiters.ts';

const validate = (api: TestApi, key: string, licenseKey: string) =>
  api.call('POST', '/licenses/validate', { key, body: { licenseKey, machineFingerprint: 'machine-a' } });

/** The HTTP app with at most `perMinute` validations per API key, a seller and a license. */
async function limitedTo(perMinute: number, rateLimiter?: RateLimiter) {
  const { deps } = sqliteDeps();
  const api = testApi({ deps: { ...deps, validateRateLimitPerMinute: perMinute, ...(rateLimiter && { rateLimiter }) } });
  const s = await seller(api);
  const { licenseKey } = await s.grant();
  return { api, s, licenseKey };
}

async function validateTimes(api: TestApi, key: string, licenseKey: string, times: number) {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await validate(api, key, licenseKey)).status);
  return statuses;
}

describe('POST /licenses/validate: the per-key rate limit', () => {
  test('past the limit (3 a minute) the 4th validation is 429 rate_limited with Retry-After in seconds', async () => {
    const { api, s, licenseKey } = await limitedTo(3);
    await validateTimes(api, s.publishableKey, licenseKey, 3);
    api.clock.advance(20_000);

    const fourth = await validate(api, s.publishableKey, licenseKey);

    expect(fourth.status).toBe(429);
    expect(fourth.headers.get('retry-after')).toBe('40');
    expect(fourth.body.error).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('3 a minute') });
  });

  test('another seller’s key is not affected by one key past its limit', async () => {
    const { api, s, licenseKey } = await limitedTo(3);
    const other = await seller(api);
    const otherKey = (await other.grant()).licenseKey;
    await validateTimes(api, s.publishableKey, licenseKey, 4);

    const statuses = await validateTimes(api, other.publishableKey, otherKey, 3);

    expect(statuses).toEqual([200, 200, 200]);
  });

  test('a seller’s secret and publishable keys are counted apart', async () => {
    const { api, s, licenseKey } = await limitedTo(3);
    await validateTimes(api, s.publishableKey, licenseKey, 4);

    const withSecret = await validate(api, s.apiKey, licenseKey);

    expect(withSecret.status).toBe(200);
  });

  test('after the window the key may validate again', async () => {
    const { api, s, licenseKey } = await limitedTo(3);
    const first = await validateTimes(api, s.publishableKey, licenseKey, 4);

    api.clock.advance(MINUTE);
    const next = await validate(api, s.publishableKey, licenseKey);

    expect(first).toEqual([200, 200, 200, 429]);
    expect(next.status).toBe(200);
    expect(next.body.valid).toBe(true);
  });

  test('invalid licenses count too: every validation call is counted, whatever its answer', async () => {
    const { api, s } = await limitedTo(2);

    const statuses = await validateTimes(api, s.publishableKey, 'not-a-license-key', 3);

    expect(statuses).toEqual([200, 200, 429]);
  });

  test('a request without a valid key is 401 and counts against no one', async () => {
    const { api, s, licenseKey } = await limitedTo(1);
    await validateTimes(api, 'pk_test_unknown', licenseKey, 3);

    const own = await validate(api, s.publishableKey, licenseKey);

    expect(own.status).toBe(200);
  });

  test('a limit of 0 turns the limit off: the limiter is never asked', async () => {
    const asked: string[] = [];
    const spy: RateLimiter = { hit: async (key) => (asked.push(key), { allowed: false, retryAfterSeconds: 1, remaining: 0 }) };
    const { api, s, licenseKey } = await limitedTo(0, spy);

    const statuses = await validateTimes(api, s.publishableKey, licenseKey, 5);

    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(asked).toEqual([]);
  });

  test('the key counted is the caller’s developer and key scope, never the raw API key', async () => {
    const asked: string[] = [];
    const spy: RateLimiter = { hit: async (key, limit) => (asked.push(key), { allowed: true, retryAfterSeconds: 0, remaining: limit - 1 }) };
    const { api, s, licenseKey } = await limitedTo(10, spy);

    await validate(api, s.publishableKey, licenseKey);
    await validate(api, s.apiKey, licenseKey);

    expect(asked).toEqual([`validate:${s.id}:publishable`, `validate:${s.id}:secret`]);
  });

  test('the OpenAPI document lists 429 for validation', async () => {
    const { api } = await limitedTo(3);

    const doc = await api.call('GET', '/openapi.json');

    expect(Object.keys(doc.body.paths['/v1/licenses/validate'].post.responses)).toContain('429');
  });
});
