import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import type { RateLimiter } from '../../src/ports/rate-limiter.ts';
import { MINUTE, postgresLimiters, redisLimiters, unique, type OpenLimiter } from './limiters.ts';

/** Several service instances, each with its own pool or client, hold one limit between them. */
for (const setup of [postgresLimiters, redisLimiters]) {
  describe(`two instances share one limit (${setup.name})`, () => {
    let opened: OpenLimiter;
    let second: RateLimiter;
    beforeEach(async () => {
      opened = await setup.open();
      second = (await opened.another())!;
    });
    afterEach(async () => {
      await opened.dispose();
    });

    test('hits spread over two instances count against the same window', async () => {
      const key = `k_${unique()}`;

      const a1 = await opened.limiter.hit(key, 3, MINUTE);
      const b1 = await second.hit(key, 3, MINUTE);
      const a2 = await opened.limiter.hit(key, 3, MINUTE);
      const b2 = await second.hit(key, 3, MINUTE);

      expect([a1, b1, a2, b2].map((v) => [v.allowed, v.remaining])).toEqual([
        [true, 2],
        [true, 1],
        [true, 0],
        [false, 0],
      ]);
    });

    test('100 concurrent hits on each of two instances with a limit of 50: exactly 50 allowed in all', async () => {
      const key = `k_${unique()}`;
      const fire = (limiter: RateLimiter) => Array.from({ length: 100 }, () => limiter.hit(key, 50, MINUTE));

      const verdicts = await Promise.all([...fire(opened.limiter), ...fire(second)]);

      expect(verdicts.filter((v) => v.allowed)).toHaveLength(50);
    });

    test('an instance that has refused a key still refuses it while the other instance is asked afresh', async () => {
      const key = `k_${unique()}`;
      await opened.limiter.hit(key, 1, MINUTE);
      await opened.limiter.hit(key, 1, MINUTE); // refused: this instance remembers it

      const again = await opened.limiter.hit(key, 1, MINUTE);
      const other = await second.hit(key, 1, MINUTE);

      expect([again.allowed, other.allowed]).toEqual([false, false]);
    });

    test('both instances let the key through again in the next window', async () => {
      const key = `k_${unique()}`;
      await opened.limiter.hit(key, 1, MINUTE);
      await second.hit(key, 1, MINUTE);
      await opened.limiter.hit(key, 1, MINUTE);

      opened.clock.advance(MINUTE);
      const first = await second.hit(key, 1, MINUTE);
      const then = await opened.limiter.hit(key, 1, MINUTE);

      expect([first.allowed, then.allowed]).toEqual([true, false]);
    });
  });
}
