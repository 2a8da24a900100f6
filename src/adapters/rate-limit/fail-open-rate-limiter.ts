import type { RateLimiter, RateLimitVerdict } from '../../ports/rate-limiter.ts';
import type { Logger } from '../system/logger.ts';

/** An outage ends at the first answer this long after its last failure: a flapping store is one outage. */
export const RECOVERY_QUIET_MS = 2_000;

/**
 * Lets requests through, uncounted, while the shared counters (Redis, PostgreSQL) cannot be reached:
 * a rate limit protects the service, and an outage of its counters must not take validation down
 * with it. One warning per outage, one line at its end. A success in between failures does not end
 * it: some answers need no round trip (a window already known to be full is refused from memory),
 * and counting those as recoveries logged two lines per request during an outage.
 */
export class FailOpenRateLimiter implements RateLimiter {
  private failingSince: number | null = null;
  private lastFailureAt = 0;
  private letThrough = 0;

  constructor(
    private readonly inner: RateLimiter,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** True while the shared counters do not answer (the metrics page's rate_limits_failing_open). */
  get failingOpen(): boolean {
    return this.failingSince !== null;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitVerdict> {
    let verdict: RateLimitVerdict;
    try {
      verdict = await this.inner.hit(key, limit, windowMs);
    } catch (error) {
      const now = this.now();
      this.lastFailureAt = now;
      this.letThrough++;
      if (this.failingSince === null) {
        this.failingSince = now;
        this.log.warn('rate limits not enforced: their store does not answer', { error: error instanceof Error ? error.message : String(error) });
      }
      return { allowed: true, retryAfterSeconds: 0, remaining: limit };
    }
    if (this.failingSince !== null && this.now() - this.lastFailureAt >= RECOVERY_QUIET_MS) {
      this.log.info('rate limits enforced again', { uncounted: this.letThrough, seconds: Math.round((this.lastFailureAt - this.failingSince) / 1000) });
      this.failingSince = null;
      this.letThrough = 0;
    }
    return verdict;
  }
}
