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

/**
 * A saved card exists for a customer only while it belongs to the phone on file: the phone their
 * sign-in was proven through. A card saved by a checkout that brought another phone (an unproven
 * e-mail) is never offered nor charged, whoever later proves the e-mail.
 */
export function cardUsableWith(card: Pick<SavedCard, 'phone'>, phoneOnFile: string | null): boolean {
  return phoneOnFile !== null && card.phone === phoneOnFile;
}
