import { afterEach, describe, expect, test } from 'bun:test';
import { RedisClient } from 'bun';
import { FailOpenRateLimiter, RECOVERY_QUIET_MS } from '../../src/adapters/rate-limit/fail-open-rate-limiter.ts';
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

  test('a Redis outage under traffic that mixes refused and fresh keys logs one warning, not one per request', async () => {
    const proxy = redisProxy();
    const clock = new FixedClock();
    const prefix = `licensing:rl:test:${unique()}:`;
    const redis = await RedisRateLimiter.connect(proxy.url, clock, { prefix });
    cleanup.push(() => redis.close(), () => proxy.down(), () => deleteKeys(prefix));
    const lines: string[] = [];
    const limiter = new FailOpenRateLimiter(redis, jsonLogger('info', (l) => lines.push(l)), () => clock.now());
    const full = `full_${unique()}`;
    await limiter.hit(full, 1, MINUTE);
    expect((await limiter.hit(full, 1, MINUTE)).allowed).toBe(false); // now refused from memory, no round trip

    proxy.down();
    for (let i = 0; i < 200; i++) {
      await (i % 2 ? limiter.hit(full, 1, MINUTE) : limiter.hit(`fresh_${i}`, 100, MINUTE));
      if (i % 20 === 0) clock.advance(100);
    }
    proxy.up();
    clock.advance(RECOVERY_QUIET_MS);
    for (let i = 0; i < 50 && lines.length < 2; i++) {
      await limiter.hit(`after_${i}`, 100, MINUTE);
      clock.advance(100);
    }

    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['rate limits not enforced: their store does not answer', 'rate limits enforced again']);
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
    const clock = new FixedClock();
    const limiter = new FailOpenRateLimiter(flaky, jsonLogger('info', (l) => lines.push(l)), () => clock.now());
    await limiter.hit('k', 1, MINUTE);

    down = false;
    clock.advance(RECOVERY_QUIET_MS);
    const verdicts = [await limiter.hit('k', 1, MINUTE), await limiter.hit('k', 1, MINUTE)];

    expect(verdicts.map((v) => v.allowed)).toEqual([true, false]);
    expect(lines.map((l) => JSON.parse(l))).toMatchObject([{ level: 'warn' }, { level: 'info', msg: 'rate limits enforced again', uncounted: 1 }]);
  });

  test('a flapping store, answering some hits between failures, is one outage: one warning, one recovery line', async () => {
    const lines: string[] = [];
    const clock = new FixedClock();
    const memory = new MemoryRateLimiter(clock);
    let calls = 0;
    const flapping: RateLimiter = { hit: (...args) => (++calls % 2 === 0 ? broken.hit(...args) : memory.hit(...args)) };
    const limiter = new FailOpenRateLimiter(flapping, jsonLogger('info', (l) => lines.push(l)), () => clock.now());

    for (let i = 0; i < 500; i++) {
      await limiter.hit(`k${i % 7}`, 1_000, MINUTE);
      clock.advance(2);
    }
    calls = 1; // answers from now on
    const healthy = () => memory.hit('h', 1_000, MINUTE);
    flapping.hit = healthy;
    await limiter.hit('h', 1_000, MINUTE);
    clock.advance(RECOVERY_QUIET_MS);
    await limiter.hit('h', 1_000, MINUTE);

    expect(lines.map((l) => JSON.parse(l).level)).toEqual(['warn', 'info']);
  });
});
