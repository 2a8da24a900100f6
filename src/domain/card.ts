import { signInPhone, type Customer } from './customer.ts';
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
 * A saved card exists for a signed-in customer (whose sign-in proved the e-mail) only while it
 * belongs to the customer's confirmed phone, the phone purchase codes are texted to: so its use
 * reaches the phone its checkout gave. A card saved by a checkout that brought another phone is
 * never offered nor charged. Where the service sends no texts, there is no phone factor: the proven
 * e-mail alone holds the customer's cards (docs/customers.md).
 */
export function cardUsableWith(card: Pick<SavedCard, 'phone'>, customer: Pick<Customer, 'phone' | 'phoneVerifiedAt'> | null, textsSent: boolean): boolean {
  if (!customer) return false;
  if (!textsSent) return true;
  const phone = signInPhone(customer);
  return phone !== null && card.phone === phone;
}
