import { afterEach, describe, expect, test } from 'bun:test';
import { RedisClient } from 'bun';
import { FailOpenRateLimiter } from '../../src/adapters/rate-limit/fail-open-rate-limiter.ts';
import { MemoryRateLimiter } from '../../src/adapters/rate-limit/memory-rate-limiter.ts';
import { RedisRateLimiter } from '../../src/adapters/rate-limit/redis-rate-limiter.ts';
import { jsonLogger } from '../../src/adapters/system/logger.ts';
import type { RateLimiter } from '../../src/ports/rate-limiter.ts';
import { FixedClock } from '../support/clock.ts';
import { MINUTE, TEST_REDIS_URL, unique } from './limiters.ts';
import { redisProxy } from './redis-proxy.ts';

async function deleteKeys(prefix: string) {
  const redis = new RedisClient(TEST_REDIS_URL);
  const keys = (await redis.send('KEYS', [`${prefix}*`])) as string[];
  if (keys.length > 0) await redis.send('DEL', keys);
  redis.close();
}

const settle = (p: Promise<unknown>) => p.then(() => 'ok', () => 'failed');

describe('Redis going away and coming back', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const undo of cleanup.splice(0)) await undo();
  });

  test('hits fail at once while Redis is away, and count again once it is back, with no restart', async () => {
    const proxy = redisProxy();
    const clock = new FixedClock();
    const prefix = `licensing:rl:test:${unique()}:`;
    const limiter = await RedisRateLimiter.connect(proxy.url, clock, { prefix });
    cleanup.push(() => limiter.close(), () => proxy.down(), () => deleteKeys(prefix));
    const key = `k_${unique()}`;
    const before = await limiter.hit(key, 2, MINUTE);

    proxy.down();
    const during = await settle(limiter.hit(key, 2, MINUTE));
    proxy.up();
    clock.advance(1_000); // the next reconnection attempt is due
    const after = await limiter.hit(key, 2, MINUTE);

    expect(before.remaining).toBe(1);
    expect(during).toBe('failed');
    expect([after.allowed, after.remaining]).toEqual([true, 0]);
  });

  test('connecting where nothing listens fails at start-up, without echoing the password', async () => {
    const error = await RedisRateLimiter.connect('redis://:s3cret-pass@127.0.0.1:1', new FixedClock()).then(
      () => null,
      (e: unknown) => e as Error,
    );

    expect(error).toBeInstanceOf(Error);
    expect(String(error?.message)).not.toContain('s3cret-pass');
  });
});

describe('FailOpenRateLimiter', () => {
  const broken: RateLimiter = { hit: () => Promise.reject(new Error('connection refused')) };

  test('while the counters do not answer, hits are let through and the outage is logged once', async () => {
    const lines: string[] = [];
    const limiter = new FailOpenRateLimiter(broken, jsonLogger('info', (l) => lines.push(l)));

    const verdicts = await Promise.all([limiter.hit('k', 1, MINUTE), limiter.hit('k', 1, MINUTE), limiter.hit('k', 1, MINUTE)]);

    expect(verdicts.every((v) => v.allowed)).toBe(true);
    expect(lines.map((l) => JSON.parse(l))).toMatchObject([{ level: 'warn', msg: expect.stringContaining('not enforced'), error: 'connection refused' }]);
  });

  test('once the counters answer again, their verdicts apply and the recovery is logged', async () => {
    const lines: string[] = [];
    let down = true;
    const memory = new MemoryRateLimiter(new FixedClock());
    const flaky: RateLimiter = { hit: (...args) => (down ? broken.hit(...args) : memory.hit(...args)) };
    const limiter = new FailOpenRateLimiter(flaky, jsonLogger('info', (l) => lines.push(l)));
    await limiter.hit('k', 1, MINUTE);

    down = false;
    const verdicts = [await limiter.hit('k', 1, MINUTE), await limiter.hit('k', 1, MINUTE)];

    expect(verdicts.map((v) => v.allowed)).toEqual([true, false]);
    expect(lines.map((l) => JSON.parse(l).level)).toEqual(['warn', 'info']);
  });
});
