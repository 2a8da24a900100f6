import type { SavedCardDetails } from './checkout-session.ts';

/** A card a customer saved with one seller's processor account, for later off-session charges. */
export interface SavedCard extends SavedCardDetails {
  id: string;
  customerId: string;
  developerId: string;
  /** The processor's customer the payment method belongs to (Stripe `cus_…` on the seller's account). */
  processorCustomerId: string | null;
  /**
   * The phone the checkout that saved the card brought (null: none). The card is offered only to a
   * customer whose sign-in was proven through this very phone.
   */
  phone: string | null;
  createdAt: number;
}
