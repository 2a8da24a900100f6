import type { RateLimiter, RateLimitVerdict } from '../../ports/rate-limiter.ts';

/**
 * Counts the hits another limiter refuses, by the kind of limit: the first two parts of the key
 * (`validate:license`, `signup:address`, `sms:phone`…), never the id, address or digest after them.
 */
export class CountingRateLimiter implements RateLimiter {
  constructor(
    private readonly inner: RateLimiter,
    private readonly refused: (kind: string) => void,
  ) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitVerdict> {
    const verdict = await this.inner.hit(key, limit, windowMs);
    if (!verdict.allowed) this.refused(kindOf(key));
    return verdict;
  }
}

export function kindOf(key: string): string {
  const first = key.indexOf(':');
  if (first < 0) return key.slice(0, 40);
  const second = key.indexOf(':', first + 1);
  return second < 0 ? key.slice(0, 40) : key.slice(0, second);
}
