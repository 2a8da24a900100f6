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
  /** One more consecutive failure, atomically; locks until `lockUntil` when it reaches `lockAt`. Returns the state after. */
  recordLoginFailure(key: string, lockAt: number, lockUntil: number): Promise<LoginFailures>;
  /** A successful login: the count starts again from zero. */
  resetLoginFailures(key: string): Promise<void>;
}
