/** A terminal purchase with a saved card: init → otp → confirm; confirmed once, whatever the retries. */
export const PURCHASE_STATUSES = ['pending', 'charging', 'paid'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

export interface Purchase {
  id: string;
  customerId: string;
  developerId: string;
  productId: string;
  /** The price when the purchase began: later price changes do not apply to it. */
  amount: number;
  currency: string;
  status: PurchaseStatus;
  /** Each charge attempt has its own number: the processor's idempotency key is derived from it. */
  attempt: number;
  /** When the current charge attempt began (a crashed attempt is taken over after a while). */
  chargingSince: number | null;
  cardId: string | null;
  paymentId: string | null;
  licenseId: string | null;
  createdAt: number;
}

/** What a customer is offered before paying with a saved card: the price now and the cards they may use. */
export interface PurchaseOffer {
  purchaseId: string;
  productId: string;
  productName: string;
  amount: number;
  currency: string;
  cards: { id: string; brand: string; last4: string; expMonth: number; expYear: number }[];
}

/** A charge attempt older than this is presumed abandoned (the process died): another may resume it. */
export const CHARGE_TAKEOVER_MS = 60_000;
