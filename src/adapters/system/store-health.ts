import { describeError } from './describe-error.ts';
import type { Logger } from './logger.ts';

/**
 * PostgreSQL SQLSTATEs that say "the store cannot serve this now", not "this request is wrong":
 * a statement or lock past its deadline (57014, 55P03), a server shutting down or starting
 * (57P01-57P03), out of disk, memory or connections (class 53), a broken connection (class 08).
 */
const PG_UNAVAILABLE = new Set(['57014', '55P03', '57P01', '57P02', '57P03']);
const PG_UNAVAILABLE_CLASSES = ['53', '08'];

/** Bun SQL's own codes for a connection that cannot be made or was lost, and socket errnos. */
const DRIVER_UNAVAILABLE = new Set([
  'ERR_POSTGRES_CONNECTION_CLOSED',
  'ERR_POSTGRES_CONNECTION_TIMEOUT',
  'ERR_POSTGRES_IDLE_TIMEOUT',
  'ERR_POSTGRES_LIFETIME_TIMEOUT',
  'ERR_POSTGRES_QUERY_CANCELLED',
  'ERR_POOL_WAIT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/** SQLite's result codes for a database that is busy past its wait, full, or failing its disk. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|NOMEM|PROTOCOL)/;

/** Whether an error (or anything it wraps) says the store is unavailable rather than the request wrong. */
export function isStoreUnavailable(error: unknown): boolean {
  return unavailableCodeOf(error) !== null;
}

/** The code (SQLSTATE, driver code, SQLite result code) that says the store is unavailable, or null. */
export function unavailableCodeOf(error: unknown): string | null {
  let e = error as { code?: unknown; errno?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 8; depth++, e = e.cause as typeof e) {
    for (const value of [e.code, e.errno]) {
      if (typeof value !== 'string') continue;
      if (PG_UNAVAILABLE.has(value) || DRIVER_UNAVAILABLE.has(value) || SQLITE_UNAVAILABLE.test(value)) return value;
      if (/^[0-9A-Z]{5}$/.test(value) && PG_UNAVAILABLE_CLASSES.includes(value.slice(0, 2))) return value;
    }
  }
  return null;
}

/**
 * Failures local to some rows or to this moment's load: a lock or statement past its deadline, a
 * busy SQLite, a full pool. They answer 503 but leave the instance ready: one hot row must not
 * take every instance out of rotation at once. The rest (unreachable, full disk, I/O) are store-wide.
 */
const LOCAL = /^(55P03|57014|SQLITE_BUSY|SQLITE_LOCKED|ERR_POOL_WAIT_TIMEOUT)/;

/** Seconds a 503 asks the caller to wait before trying again. */
export const RETRY_AFTER_SECONDS = 2;

/** An episode ends after this long without a store failure: the next one is logged again. */
export const EPISODE_QUIET_MS = 10_000;

/**
 * What requests learnt about the store: the last time it failed them as unavailable. One warning
 * per episode (the first failure), one line when an episode ends (the next success seen by the
 * readiness probe, or a failure after a quiet spell), never one line per failed request.
 */
export class StoreHealth {
  private failingSince: number | null = null;
  private lastFailureAt = 0;
  private lastStoreWideFailureAt: number | null = null;
  private failures = 0;

  constructor(
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
    private readonly quietMs = EPISODE_QUIET_MS,
  ) {}

  /** Records a failure; logs it when it opens an episode. */
  failed(error: unknown): void {
    const now = this.now();
    if (this.failingSince !== null && now - this.lastFailureAt > this.quietMs) this.ended();
    this.lastFailureAt = now;
    if (!LOCAL.test(unavailableCodeOf(error) ?? '')) this.lastStoreWideFailureAt = now;
    this.failures++;
    if (this.failingSince === null) {
      this.failingSince = now;
      this.log.warn('store unavailable: answering 503 until it recovers', { ...describeError(error), reason: unavailableCodeOf(error) ?? undefined });
    }
  }

  /** A recent write or read failed on a store-wide fault (unreachable, full, I/O) within the quiet period. */
  failingRecently(): boolean {
    return this.lastStoreWideFailureAt !== null && this.now() - this.lastStoreWideFailureAt <= this.quietMs;
  }

  /** The store answered: ends an open episode once it has been quiet for the quiet period. */
  answered(): void {
    if (this.failingSince !== null && this.now() - this.lastFailureAt > this.quietMs) this.ended();
  }

  private ended(): void {
    this.log.info('store available again', { failedRequests: this.failures, seconds: Math.round((this.lastFailureAt - (this.failingSince ?? 0)) / 1000) });
    this.failingSince = null;
    this.failures = 0;
    this.lastStoreWideFailureAt = null;
  }
}
