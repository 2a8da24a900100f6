import type { LoginFailures, OtpChallenge, OtpScope } from '../domain/otp-challenge.ts';

export interface OtpRepository {
  create(challenge: OtpChallenge): Promise<void>;
  findById(id: string): Promise<OtpChallenge | null>;
  /** Creation times of the codes sent for this scope and subject since `since` (send limits). */
  sentSince(scope: OtpScope, subject: string, since: number): Promise<number[]>;
  /** Counts one verification attempt, atomically; returns the count including it. */
  recordAttempt(id: string): Promise<number>;
  /** Uses the challenge up, once: true for exactly one caller, also under concurrent verifies. */
  consume(id: string, at: number): Promise<boolean>;
  /** The send failed: the challenge can never be used (it stays counted against the send limit). */
  discard(id: string, at: number): Promise<void>;
  /**
   * Consecutive login failures under `key`: the customer's id, or for an e-mail with no customer a
   * key made from the e-mail's digest (it locks the same way, so it gives nothing away).
   */
  loginFailures(key: string): Promise<LoginFailures | null>;
  /**
   * One more attempt under `key` at `now`, counted before its code is compared, atomically (one
   * statement, or a row lock): exactly domain `nextFailures` applied to the stored state. Returns the
   * state after; `attemptAllowed` tells whether this attempt may be judged.
   */
  countTowardsLock(key: string, now: number, lockAt: number, lockMs: number): Promise<LoginFailures>;
  /** A success at `now`: the count starts again from zero and any lock is lifted. */
  resetLoginFailures(key: string, now: number): Promise<void>;
  /**
   * Retention: deletes up to `limit` failure counts last counted or reset before `before` whose lock,
   * if any, also ran out before it; returns how many. A later attempt starts from zero again.
   */
  deleteIdleLoginFailures(before: number, limit: number): Promise<number>;
  /** Retention: deletes up to `limit` challenges that expired before `before`; returns how many. */
  deleteExpired(before: number, limit: number): Promise<number>;
}
