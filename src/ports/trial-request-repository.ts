import type { TrialRequest } from '../domain/trial.ts';

/** Trials waiting for the code e-mailed to their address (POST /trials with a publishable key). */
export interface TrialRequestRepository {
  create(request: TrialRequest): Promise<void>;
  findById(id: string): Promise<TrialRequest | null>;
  /**
   * Marks the request confirmed at `at`, once: only while it is unconfirmed and not expired at `at`
   * (one conditional UPDATE). Of any number of concurrent confirmations exactly one gets the request;
   * the others get null.
   */
  confirm(id: string, at: number): Promise<TrialRequest | null>;
  /** Retention: deletes up to `limit` requests that expired before `before` (confirmed or not); returns how many. */
  deleteExpired(before: number, limit: number): Promise<number>;
}
