import type { ProcessorKind } from './checkout-session.ts';

/** What an order records: a completed checkout, a paid terminal purchase, or a paid renewal invoice. */
export const ORDER_SOURCES = ['checkout', 'purchase', 'renewal'] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];
export const ORDER_STATUSES = ['paid', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

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
