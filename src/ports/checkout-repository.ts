import type { CheckoutSession, Completion } from '../domain/checkout-session.ts';

export interface CheckoutRepository {
  create(session: CheckoutSession): Promise<void>;
  findById(id: string): Promise<CheckoutSession | null>;
  findByProcessorSessionId(processorSessionId: string): Promise<CheckoutSession | null>;
  findByPaymentId(paymentId: string): Promise<CheckoutSession | null>;
  setProcessorSession(id: string, processorSessionId: string, checkoutUrl: string): Promise<void>;
  /**
   * Records the completion once: only a session without a license takes it (pending or expired;
   * a payment that lands after our expiry still bought a license). Returns the session as stored
   * afterwards, whoever completed it.
   */
  markComplete(id: string, outcome: { licenseId: string; customerId: string; paymentId: string | null; completedAt: number }): Promise<CheckoutSession>;
  /** pending → expired only; a completed session stays complete. */
  markExpired(id: string): Promise<void>;
  setReconciledAt(id: string, at: number): Promise<void>;
  /**
   * Retention: deletes up to `limit` sessions that expired before `expiredBefore` without being
   * completed (pending or expired, no license names them); returns how many.
   */
  deleteUnpaid(expiredBefore: number, limit: number): Promise<number>;
}
