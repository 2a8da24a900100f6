import type { RateLimitVerdict } from '../../ports/rate-limiter.ts';

/** The start of the window holding `now`: windows are aligned on the epoch, so every instance agrees. */
export function windowStartOf(now: number, windowMs: number): number {
  return now - (now % windowMs);
}

/** The verdict for the `count`-th hit of a window ending at `windowEnd`. */
export function verdictOf(count: number, limit: number, windowEnd: number, now: number): RateLimitVerdict {
  const allowed = count <= limit;
  return {
    allowed,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((windowEnd - now) / 1000)),
    remaining: Math.max(0, limit - count),
  };
}

/**
 * The keys this process saw refused, until their window ends. Counts only grow within a window, so
 * a later hit in the same window is refused too: answering it here spares the shared store a
 * round trip exactly when a client is hammering it.
 */
export class RefusedWindows {
  private readonly until = new Map<string, { windowEnd: number; limit: number }>();

  /** The verdict when `key` is known to be over `limit` at `now`; null when the store must be asked. */
  check(key: string, limit: number, now: number): RateLimitVerdict | null {
    const refused = this.until.get(key);
    if (refused === undefined) return null;
    if (now >= refused.windowEnd || limit > refused.limit) {
      this.until.delete(key);
      return null;
    }
    return verdictOf(limit + 1, limit, refused.windowEnd, now);
  }

  remember(key: string, limit: number, verdict: RateLimitVerdict, windowEnd: number): void {
    if (!verdict.allowed) this.until.set(key, { windowEnd, limit });
  }

  /** Forgets every window that has ended. */
  sweep(now: number): void {
    for (const [key, refused] of this.until) if (now >= refused.windowEnd) this.until.delete(key);
  }
}
