import type { RateLimiter, RateLimitVerdict } from '../../ports/rate-limiter.ts';

/** Second parts of a key that name what is counted (not who): kept in the label. */
const SUBJECTS = new Set(['address', 'license', 'customer', 'phone', 'seller']);

/**
 * Counts the hits another limiter refuses, by the kind of limit: the key's first part, with its second
 * when that names a kind of subject (`validate:license`, `signup:address`, `sms:phone`, `login`,
 * `trial-mail`…), never the id, address or digest after them: the label's values stay few.
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
  const [first = '', second = ''] = key.split(':', 2);
  const kind = SUBJECTS.has(second) ? `${first}:${second}` : first;
  return /^[a-z-]{1,20}(:[a-z]+)?$/.test(kind) ? kind : 'other';
}
