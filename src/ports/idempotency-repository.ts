import type { IdempotencyClaim, IdempotencyRecord } from '../domain/idempotency.ts';

/** Idempotency-Key records: one per (caller scope, key), decided by the store. */
export interface IdempotencyRepository {
  /**
   * Claims the key for this request: null when this caller won it (a new key, a record expired by
   * `claim.createdAt`, or one still in progress with no object linked and no heartbeat since
   * `lostBefore`); otherwise the record that holds it. Of concurrent claims exactly one wins.
   */
  claim(claim: IdempotencyClaim, lostBefore: number): Promise<IdempotencyRecord | null>;
  /** The holder still runs: its claim is not taken as lost. */
  heartbeat(scope: string, key: string, at: number): Promise<void>;
  /** Keeps the first request's answer, to be answered again. */
  complete(scope: string, key: string, status: number, body: string): Promise<void>;
  /**
   * Forgets an in-progress claim (the request failed on our side), so a retry runs; a claim that
   * has its object linked stays, since what it guards was written.
   */
  release(scope: string, key: string): Promise<void>;
  deleteExpired(before: number, limit: number): Promise<number>;
}
