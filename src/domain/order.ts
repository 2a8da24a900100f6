import type { ProcessorKind } from './checkout-session.ts';

/** What an order records: a completed checkout, a paid terminal purchase, or a paid renewal invoice. */
export type OrderSource = 'checkout' | 'purchase' | 'renewal';
export type OrderStatus = 'paid' | 'refunded';

/** Money in, as its seller sees it. Amounts are in the currency's minor unit. */
export interface Order {
  id: string;
  developerId: string;
  customerId: string;
  productId: string;
  licenseId: string;
  source: OrderSource;
  /** The checkout session, purchase or invoice it records: at most one order each. */
  sourceId: string;
  amount: number;
  currency: string;
  processor: ProcessorKind;
  /** The processor's payment (PaymentIntent) id, when it has one. */
  paymentId: string | null;
  /** The processor's checkout session id, or invoice id. */
  processorReference: string | null;
  status: OrderStatus;
  createdAt: number;
  refundedAt: number | null;
}
