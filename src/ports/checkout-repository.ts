import type { CheckoutSession, Completion } from '../domain/checkout-session.ts';

/** What `update` may change: every field but those fixed when the session was made. */
export type CheckoutPatch = Partial<Omit<CheckoutSession, 'id' | 'developerId' | 'productId' | 'amount' | 'currency' | 'successUrl' | 'cancelUrl' | 'processor' | 'createdAt' | 'expiresAt'>>;

export interface CheckoutRepository {
  create(session: CheckoutSession): Promise<void>;
  findById(id: string): Promise<CheckoutSession | null>;
  findByProcessorSessionId(processorSessionId: string): Promise<CheckoutSession | null>;
  findByPaymentId(paymentId: string): Promise<CheckoutSession | null>;
  /**
   * Writes the fields `patch` names (undefined = unchanged) and the event the change announces
   * (pending → expired: checkout.expired), in one store transaction; with `expect`, only while the
   * session still has those values (compare and swap). The session as updated, or null when there
   * is none or it no longer has the expected values. A processor session id already taken by
   * another session is refused (the store's unique index).
   */
  update(id: string, patch: CheckoutPatch, expect?: CheckoutPatch): Promise<CheckoutSession | null>;
  /**
   * Records the completion once: only a session without a license takes it (pending or expired;
   * a payment that lands after our expiry still bought a license). Returns the session as stored
   * afterwards, whoever completed it.
   */
  markComplete(id: string, outcome: { licenseId: string; customerId: string; paymentId: string | null; completedAt: number }): Promise<CheckoutSession>;
  /**
   * Retention: deletes up to `limit` sessions that expired before `expiredBefore` without being
   * completed (pending or expired, no license names them); returns how many.
   */
  deleteUnpaid(expiredBefore: number, limit: number): Promise<number>;
}
