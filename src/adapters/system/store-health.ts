import { describeError } from './describe-error.ts';
import type { Logger } from './logger.ts';

/**
 * PostgreSQL SQLSTATEs that say "the store cannot serve this now", not "this request is wrong", by
 * class, so a code PostgreSQL adds later is covered: a broken connection (08), out of disk, memory
 * or connections (53, 53300 too many clients), a statement cancelled or a server shutting down,
 * starting or terminating this session (57: 57014, 57P01-57P05), a failure outside PostgreSQL such
 * as an I/O error (58), a login refused (28: a rotated password is an outage, not a bad request),
 * a lock past its deadline (55P03), and a transaction PostgreSQL rolled back to break a deadlock or
 * a serialization conflict (40P01, 40001): nothing of it was kept, and the same request may pass.
 */
const PG_UNAVAILABLE_CLASSES = new Set(['08', '28', '53', '57', '58']);
const PG_UNAVAILABLE = new Set(['55P03', '40P01', '40001']);

/**
 * Bun SQL's own codes for a connection that cannot be made, is refused (Bun reports a name that
 * does not resolve as refused too), fails its TLS or its login, times out or is lost: every
 * connection-level failure, by prefix. What remains (ERR_POSTGRES_SERVER_ERROR with a SQLSTATE
 * outside the classes above, a syntax error, a bad parameter) is a bug of ours and stays a 500.
 */
const DRIVER_UNAVAILABLE =
  /^ERR_(POSTGRES|MYSQL|SQLITE)_(CONNECTION_|TLS_|CHANNEL_BINDING_|AUTHENTICATION_|SASL_|UNKNOWN_AUTHENTICATION|UNSUPPORTED_AUTHENTICATION|IDLE_TIMEOUT|LIFETIME_TIMEOUT|QUERY_CANCELLED)/;

/** The pool gate's own refusals (no turn in time; a read stuck behind a lock), and the socket, name-lookup and TLS failures the runtime reports. */
const SYSTEM_UNAVAILABLE = new Set([
  'ERR_POOL_WAIT_TIMEOUT',
  'ERR_STUCK_BEHIND_LOCK',
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EPROTO',
  'ERR_SOCKET_CLOSED',
  'ERR_SOCKET_CONNECTION_TIMEOUT',
  'ERR_TLS_HANDSHAKE_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
]);

/** SQLite's result codes for a database that is busy past its wait, full, or failing its disk. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|NOMEM|PROTOCOL)/;

/** Whether an error (or anything it wraps) says the store is unavailable rather than the request wrong. */
export function isStoreUnavailable(error: unknown): boolean {
  return unavailableCodeOf(error) !== null;
}

/** The code (SQLSTATE, driver code, errno, SQLite result code) that says the store is unavailable, or null. */
export function unavailableCodeOf(error: unknown): string | null {
  let e = error as { code?: unknown; errno?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 8; depth++, e = e.cause as typeof e) {
    // A server error's SQLSTATE (errno) says more than Bun's generic ERR_POSTGRES_SERVER_ERROR: read it first.
    for (const value of [e.errno, e.code]) {
      if (typeof value === 'string' && unavailableCode(value)) return value;
    }
  }
  return null;
}

function unavailableCode(value: string): boolean {
  if (SYSTEM_UNAVAILABLE.has(value) || DRIVER_UNAVAILABLE.test(value) || SQLITE_UNAVAILABLE.test(value)) return true;
  // A SQLSTATE: five digits or capitals (an errno such as EPIPE was matched above).
  return /^[0-9A-Z]{5}$/.test(value) && (PG_UNAVAILABLE.has(value) || PG_UNAVAILABLE_CLASSES.has(value.slice(0, 2)));
}

/**
 * Failures local to some rows or to this moment's load: a lock or statement past its deadline, a
 * deadlock or serialization conflict, a busy SQLite, a full pool. They answer 503 but leave the instance ready: one hot row must not
 * take every instance out of rotation at once. The rest (unreachable, full disk, I/O) are store-wide.
 */
const LOCAL = /^(55P03|57014|40P01|40001|SQLITE_BUSY|SQLITE_LOCKED|ERR_POOL_WAIT_TIMEOUT|ERR_STUCK_BEHIND_LOCK)/;

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

  /**
   * For the background rounds (mail, webhooks): a failure the store is to blame for joins the
   * episode (one line for the whole outage, not one per round) and answers true; anything else is
   * the caller's to log, and answers false.
   */
  tookStoreFailure(error: unknown): boolean {
    if (!isStoreUnavailable(error)) return false;
    this.failed(error);
    return true;
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
