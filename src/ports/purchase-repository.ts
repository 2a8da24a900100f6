import type { Purchase } from '../domain/purchase.ts';

export interface PurchaseRepository {
  create(purchase: Purchase): Promise<void>;
  findById(id: string): Promise<Purchase | null>;
  findByPaymentId(paymentId: string): Promise<Purchase | null>;
  /**
   * Starts a charge attempt with this card, once at a time: only a `pending` purchase, or one whose
   * attempt has been `charging` since before `staleBefore`, moves to `charging` with attempt + 1
   * (a stale attempt keeps its number: retrying it reuses its idempotency key). Returns the
   * purchase as stored afterwards, and whether this caller started the attempt.
   */
  beginCharge(id: string, cardId: string, at: number, staleBefore: number): Promise<{ started: boolean; purchase: Purchase }>;
  /** charging → pending: the charge was declined; another attempt may follow. */
  chargeFailed(id: string, attempt: number): Promise<void>;
  /** charging → paid, with what the charge bought. */
  markPaid(id: string, outcome: { paymentId: string; licenseId: string }): Promise<void>;
  /**
   * Retention: deletes up to `limit` purchases created before `createdBefore` that are still pending
   * (never charged) and that no license names; returns how many.
   */
  deleteAbandoned(createdBefore: number, limit: number): Promise<number>;
}
