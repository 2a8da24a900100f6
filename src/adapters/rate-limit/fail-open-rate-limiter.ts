import type { RateLimiter, RateLimitVerdict } from '../../ports/rate-limiter.ts';
import type { Logger } from '../system/logger.ts';

/**
 * Lets requests through, uncounted, while the shared counters (Redis, PostgreSQL) cannot be reached:
 * a rate limit protects the service, and an outage of its counters must not take validation down
 * with it. The first failure is logged as a warning, the recovery once.
 */
export class FailOpenRateLimiter implements RateLimiter {
  private failing = false;

  constructor(
    private readonly inner: RateLimiter,
    private readonly log: Logger,
  ) {}

  /** True while the shared counters do not answer (the metrics page's rate_limits_failing_open). */
  get failingOpen(): boolean {
    return this.failing;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitVerdict> {
    let verdict: RateLimitVerdict;
    try {
      verdict = await this.inner.hit(key, limit, windowMs);
    } catch (error) {
      if (!this.failing) {
        this.failing = true;
        this.log.warn('rate limits not enforced: their store does not answer', { error: error instanceof Error ? error.message : String(error) });
      }
      return { allowed: true, retryAfterSeconds: 0, remaining: limit };
    }
    if (this.failing) {
      this.failing = false;
      this.log.info('rate limits enforced again');
    }
    return verdict;
  }
}
