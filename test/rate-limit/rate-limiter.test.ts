import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { concurrentHits, LIMITER_SETUPS, MINUTE, unique, type OpenLimiter } from './limiters.ts';

/** The RateLimiter contract: every adapter counts the same way. */
for (const setup of LIMITER_SETUPS) {
  describe(`RateLimiter contract (${setup.name})`, () => {
    let opened: OpenLimiter;
    beforeEach(async () => {
      opened = await setup.open();
    });
    afterEach(async () => {
      await opened.dispose();
    });

    test('the first `limit` hits of a window are allowed, counting remaining down; the next is refused', async () => {
      const { limiter } = opened;
      const key = `k_${unique()}`;

      const verdicts = [];
      for (let i = 0; i < 4; i++) verdicts.push(await limiter.hit(key, 3, MINUTE));

      expect(verdicts.map((v) => [v.allowed, v.remaining])).toEqual([
        [true, 2],
        [true, 1],
        [true, 0],
        [false, 0],
      ]);
      expect(verdicts.slice(0, 3).map((v) => v.retryAfterSeconds)).toEqual([0, 0, 0]);
    });

    test('a refused hit is told the whole seconds until its window ends, at least 1', async () => {
      const { limiter, clock } = opened;
      const key = `k_${unique()}`;
      await limiter.hit(key, 1, MINUTE); // windows are aligned on the epoch; the clock starts on a boundary

      clock.advance(200);
      const early = await limiter.hit(key, 1, MINUTE);
      clock.advance(59_500);
      const late = await limiter.hit(key, 1, MINUTE);

      expect([early.allowed, early.retryAfterSeconds]).toEqual([false, 60]);
      expect([late.allowed, late.retryAfterSeconds]).toEqual([false, 1]);
    });

    test('200 concurrent hits with a limit of 50: exactly 50 are allowed, each with its own remaining count', async () => {
      const key = `k_${unique()}`;

      const verdicts = await concurrentHits(opened.limiter, key, 200, 50);

      const allowed = verdicts.filter((v) => v.allowed);
      expect(allowed).toHaveLength(50);
      expect(allowed.map((v) => v.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
      expect(verdicts.filter((v) => !v.allowed).every((v) => v.retryAfterSeconds === 60)).toBe(true);
    });

    test('the next window starts from zero: a refused key is allowed again once its window has passed', async () => {
      const { limiter, clock } = opened;
      const key = `k_${unique()}`;
      await limiter.hit(key, 2, MINUTE);
      await limiter.hit(key, 2, MINUTE);
      const refused = await limiter.hit(key, 2, MINUTE);

      clock.advance(MINUTE - 1);
      const lastMillisecond = await limiter.hit(key, 2, MINUTE);
      clock.advance(1);
      const nextWindow = await limiter.hit(key, 2, MINUTE);

      expect(refused.allowed).toBe(false);
      expect(lastMillisecond.allowed).toBe(false);
      expect(nextWindow).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 1 });
    });

    test('keys are counted apart: one key past its limit does not touch another', async () => {
      const { limiter } = opened;
      const [busy, quiet] = [`k_${unique()}`, `k_${unique()}`];
      await concurrentHits(limiter, busy, 5, 2);

      const other = await limiter.hit(quiet, 2, MINUTE);

      expect(other).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 1 });
    });

    test('a key refused under one limit is counted afresh against a higher limit', async () => {
      const { limiter } = opened;
      const key = `k_${unique()}`;
      await concurrentHits(limiter, key, 3, 2); // hits 1 and 2 allowed, 3 refused

      const underHigherLimit = await limiter.hit(key, 10, MINUTE);

      expect(underHigherLimit).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 6 });
    });

    test('windows of one second roll over every second', async () => {
      const { limiter, clock } = opened;
      const key = `k_${unique()}`;
      const first = await concurrentHits(limiter, key, 3, 1, 1_000);

      clock.advance(1_000);
      const second = await limiter.hit(key, 1, 1_000);

      expect(first.filter((v) => v.allowed)).toHaveLength(1);
      expect(first.find((v) => !v.allowed)?.retryAfterSeconds).toBe(1);
      expect(second.allowed).toBe(true);
    });
  });
}
