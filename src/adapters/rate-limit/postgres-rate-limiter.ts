import type { SQL } from 'bun';
import type { Clock } from '../../ports/clock.ts';
import type { RateLimiter, RateLimitVerdict } from '../../ports/rate-limiter.ts';
import { assertSchemaName } from '../postgres/postgres-migrate.ts';
import { RefusedWindows, verdictOf, windowStartOf } from './fixed-window.ts';

/** How often each instance deletes the rows of ended windows. */
const PRUNE_EVERY_MS = 60_000;

/**
 * Counters shared by every instance on one PostgreSQL: one row per key and window, bumped by a
 * single `INSERT … ON CONFLICT DO UPDATE … RETURNING count`, which the row lock makes atomic across
 * connections. The table is UNLOGGED: no WAL, so a hit costs no disk flush; a database crash empties
 * it, which forgets at most a minute of counts.
 */
export class PostgresRateLimiter implements RateLimiter {
  private readonly upsert: string;
  private readonly deleteEnded: string;
  private readonly refused = new RefusedWindows();
  private longestWindowMs = 0;
  private pruneAt: number;
  private pruning: Promise<number> = Promise.resolve(0);

  private constructor(
    private readonly sql: SQL,
    schema: string,
    private readonly clock: Clock,
  ) {
    const table = `"${schema}".rate_limits`;
    this.upsert = `INSERT INTO ${table} AS r (key, window_start, count) VALUES ($1, $2, 1)
      ON CONFLICT (key, window_start) DO UPDATE SET count = r.count + 1 RETURNING count`;
    this.deleteEnded = `DELETE FROM ${table} WHERE window_start <= $1`;
    this.pruneAt = clock.now() + PRUNE_EVERY_MS;
  }

  /**
   * Creates `rate_limits` in `schema` (which the store has created) if missing, under an advisory
   * lock so instances starting together do not race on the DDL. `sql` stays the caller's to close.
   */
  static async open(sql: SQL, schema: string, clock: Clock): Promise<PostgresRateLimiter> {
    assertSchemaName(schema);
    await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(hashtext(${`licensing-rate-limits:${schema}`}))`;
      await tx.unsafe(
        `CREATE UNLOGGED TABLE IF NOT EXISTS "${schema}".rate_limits (key text NOT NULL, window_start bigint NOT NULL, count integer NOT NULL, PRIMARY KEY (key, window_start))`,
      );
    });
    return new PostgresRateLimiter(sql, schema, clock);
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitVerdict> {
    const now = this.clock.now();
    const known = this.refused.check(key, limit, now);
    if (known) return known;
    if (windowMs > this.longestWindowMs) this.longestWindowMs = windowMs;
    if (now >= this.pruneAt) {
      this.pruneAt = now + PRUNE_EVERY_MS;
      this.pruning = this.prune().catch(() => 0); // housekeeping: a failure waits for the next round
    }
    const start = windowStartOf(now, windowMs);
    const [row] = await this.sql.unsafe(this.upsert, [key, start]);
    const verdict = verdictOf(Number(row.count), limit, start + windowMs, now);
    this.refused.remember(key, limit, verdict, start + windowMs);
    return verdict;
  }

  /** Deletes the rows of windows that have ended (for every window length this instance used). */
  async prune(): Promise<number> {
    const now = this.clock.now();
    this.refused.sweep(now);
    if (this.longestWindowMs === 0) return 0;
    const result = await this.sql.unsafe(this.deleteEnded, [now - this.longestWindowMs]);
    return result.count;
  }

  /** The latest prune that hits started, once it has finished (its deleted row count). */
  lastPrune(): Promise<number> {
    return this.pruning;
  }

  /** The pool belongs to the store, which closes it. */
  async close(): Promise<void> {}
}
