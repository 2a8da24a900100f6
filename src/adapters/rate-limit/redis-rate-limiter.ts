import { RedisClient } from 'bun';
import type { Clock } from '../../ports/clock.ts';
import type { RateLimiter, RateLimitVerdict } from '../../ports/rate-limiter.ts';
import { RefusedWindows, verdictOf, windowStartOf } from './fixed-window.ts';

export const REDIS_KEY_PREFIX = 'licensing:rl:';

/**
 * INCR and, on a window's first hit, PEXPIRE, in one script: Redis runs a script alone, so the
 * pair is atomic, and one round trip. (MULTI would not do on a shared, pipelined connection.)
 */
const HIT_SCRIPT = `local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

export interface RedisRateLimiterOptions {
  /** Prepended to every key (default `licensing:rl:`). */
  prefix?: string;
}

/** While Redis is away, one reconnection attempt at most this often; hits in between fail at once. */
const RECONNECT_EVERY_MS = 1_000;

/**
 * Counters shared by every instance that talks to one Redis: key `<prefix><key>:<windowStart>`,
 * expiring one window length after its window ends (the expiry only collects garbage: the window
 * start in the key is what rolls the count over).
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly refused = new RefusedWindows();
  private sweepAt = 0;
  private reconnecting: Promise<void> | null = null;
  private reconnectAt = 0;
  private closed = false;

  private constructor(
    private readonly client: RedisClient,
    private readonly scriptSha: string,
    private readonly clock: Clock,
    private readonly prefix: string,
  ) {}

  /** Connects (failing fast when Redis does not answer) and loads the script. */
  static async connect(url: string, clock: Clock, options: RedisRateLimiterOptions = {}): Promise<RedisRateLimiter> {
    // No offline queue: while Redis is away a hit fails at once rather than waiting for it. The
    // client's own reconnection retries for a long while, then gives up for good: `reconnect` instead
    // tries again, at most once a second, for as long as hits come.
    const client = new RedisClient(url, { enableOfflineQueue: false, autoReconnect: false, connectionTimeout: 5_000 });
    try {
      await client.connect();
      const sha = String(await client.script('LOAD', HIT_SCRIPT));
      return new RedisRateLimiter(client, sha, clock, options.prefix ?? REDIS_KEY_PREFIX);
    } catch (error) {
      client.close();
      throw error;
    }
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitVerdict> {
    const now = this.clock.now();
    const known = this.refused.check(key, limit, now);
    if (known) return known;
    if (now >= this.sweepAt) {
      this.sweepAt = now + 60_000;
      this.refused.sweep(now);
    }
    const start = windowStartOf(now, windowMs);
    const end = start + windowMs;
    const count = await this.increment(`${this.prefix}${key}:${start}`, end - now + windowMs, now);
    const verdict = verdictOf(count, limit, end, now);
    this.refused.remember(key, limit, verdict, end);
    return verdict;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.client.close();
  }

  private reconnect(now: number): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The rate limiter is closed.'));
    if (this.reconnecting) return this.reconnecting;
    if (now < this.reconnectAt) return Promise.reject(new Error('Redis is unavailable; reconnecting.'));
    this.reconnectAt = now + RECONNECT_EVERY_MS;
    this.reconnecting = this.client.connect().finally(() => {
      this.reconnecting = null;
    });
    return this.reconnecting;
  }

  private async increment(redisKey: string, ttlMs: number, now: number): Promise<number> {
    if (!this.client.connected) await this.reconnect(now);
    try {
      return Number(await this.client.evalsha(this.scriptSha, 1, redisKey, ttlMs));
    } catch (error) {
      // SCRIPT FLUSH or a restarted Redis forgot the script: EVAL sends it again and caches it.
      if (!String((error as Error)?.message).includes('NOSCRIPT')) throw error;
      return Number(await this.client.eval(HIT_SCRIPT, 1, redisKey, ttlMs));
    }
  }
}
