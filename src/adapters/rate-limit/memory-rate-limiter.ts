import type { Clock } from '../../ports/clock.ts';
import type { RateLimiter, RateLimitVerdict } from '../../ports/rate-limiter.ts';
import { verdictOf, windowStartOf } from './fixed-window.ts';

interface Window {
  start: number;
  end: number;
  count: number;
}

/** How often ended windows are swept out of the map. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Counters in this process's memory: the limiter of a SQLite deployment, whose store is owned by
 * one process anyway. A hit is one Map lookup; JavaScript's single thread makes it atomic.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();
  private sweepAt = 0;

  constructor(private readonly clock: Clock) {}

  hit(key: string, limit: number, windowMs: number): Promise<RateLimitVerdict> {
    const now = this.clock.now();
    let window = this.windows.get(key);
    // Only forward: a clock stepping back a little keeps counting in the current window.
    if (window === undefined || now >= window.end) {
      if (now >= this.sweepAt) this.sweep(now);
      const start = windowStartOf(now, windowMs);
      window = { start, end: start + windowMs, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    return Promise.resolve(verdictOf(window.count, limit, window.end, now));
  }

  /** Keys with a live window (ended ones linger until the next sweep). */
  get size(): number {
    return this.windows.size;
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private sweep(now: number): void {
    this.sweepAt = now + SWEEP_EVERY_MS;
    for (const [key, window] of this.windows) if (now >= window.end) this.windows.delete(key);
  }
}
