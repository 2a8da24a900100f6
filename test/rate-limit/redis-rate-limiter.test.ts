import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { REDIS_KEY_PREFIX } from '../../src/adapters/rate-limit/redis-rate-limiter.ts';
import { MINUTE, openRedisLimiter, unique } from './limiters.ts';

describe('RedisRateLimiter', () => {
  let redis: Awaited<ReturnType<typeof openRedisLimiter>>;
  beforeEach(async () => {
    redis = await openRedisLimiter();
  });
  afterEach(async () => {
    await redis.dispose();
  });

  test('the service prefixes its keys with licensing:rl:', () => {
    expect(REDIS_KEY_PREFIX).toBe('licensing:rl:');
  });

  test('one counter per key and window, named <prefix><key>:<windowStart>, holding the count', async () => {
    const key = `k_${unique()}`;
    for (let i = 0; i < 3; i++) await redis.limiter.hit(key, 10, MINUTE);

    const names = await redis.keys();
    const count = await redis.inspector.get(names[0]!);

    expect(names).toEqual([`${redis.prefix}${key}:${redis.clock.now()}`]);
    expect(count).toBe('3');
  });

  test('a counter expires one window after its window ends', async () => {
    const key = `k_${unique()}`;
    redis.clock.advance(15_000); // 45 s left in the window

    await redis.limiter.hit(key, 10, MINUTE);
    const [name] = await redis.keys();
    const ttl = Number(await redis.inspector.send('PTTL', [name!]));

    expect(ttl).toBeGreaterThan(100_000);
    expect(ttl).toBeLessThanOrEqual(105_000);
  });

  test("a count already in Redis (another instance's) is continued, not restarted", async () => {
    const key = `k_${unique()}`;
    await redis.inspector.set(`${redis.prefix}${key}:${redis.clock.now()}`, '4');

    const verdict = await redis.limiter.hit(key, 5, MINUTE);

    expect(verdict).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 0 });
  });

  test('a refused key is answered without a round trip for the rest of its window', async () => {
    const key = `k_${unique()}`;
    await redis.limiter.hit(key, 1, MINUTE);
    await redis.limiter.hit(key, 1, MINUTE);

    for (let i = 0; i < 5; i++) await redis.limiter.hit(key, 1, MINUTE);
    const [name] = await redis.keys();

    expect(await redis.inspector.get(name!)).toBe('2');
  });
});
