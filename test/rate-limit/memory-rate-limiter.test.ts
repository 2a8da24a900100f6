import { describe, expect, test } from 'bun:test';
import { MemoryRateLimiter } from '../../src/adapters/rate-limit/memory-rate-limiter.ts';
import { FixedClock } from '../support/clock.ts';
import { MINUTE } from './limiters.ts';

describe('MemoryRateLimiter', () => {
  test('ended windows are swept out once a minute, so idle keys do not pile up', async () => {
    const clock = new FixedClock();
    const limiter = new MemoryRateLimiter(clock);
    for (let i = 0; i < 100; i++) await limiter.hit(`idle_${i}`, 10, MINUTE);

    clock.advance(MINUTE);
    await limiter.hit('active', 10, MINUTE);

    expect(limiter.size).toBe(1);
  });

  test('a clock stepping back a little keeps counting in the current window', async () => {
    const clock = new FixedClock();
    const limiter = new MemoryRateLimiter(clock);
    clock.advance(MINUTE);
    await limiter.hit('k', 2, MINUTE);
    await limiter.hit('k', 2, MINUTE);

    clock.advance(-50); // an NTP correction across the boundary
    const verdict = await limiter.hit('k', 2, MINUTE);

    expect(verdict.allowed).toBe(false);
  });

  test('one hit costs well under a microsecond-scale budget (a Map lookup), measured not asserted', async () => {
    const limiter = new MemoryRateLimiter(new FixedClock());
    const n = 200_000;
    const started = performance.now();
    for (let i = 0; i < n; i++) await limiter.hit('validate:dev:publishable', 1e9, MINUTE);
    const nsPerHit = ((performance.now() - started) * 1e6) / n;
    console.log(`MemoryRateLimiter.hit: ${nsPerHit.toFixed(0)} ns`);

    expect((await limiter.hit('validate:dev:publishable', 1e9, MINUTE)).remaining).toBe(1e9 - n - 1);
  });
});
