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
  /** `refunded` once all of `amount` went back (a full refund or a lost dispute); a partial refund leaves it `paid`. */
  status: OrderStatus;
  createdAt: number;
  /** How much of `amount` went back to the buyer so far (0 ≤ amountRefunded ≤ amount). */
  amountRefunded: number;
  /** When money last went back (a partial refund included); null = never. */
  refundedAt: number | null;
  /** A renewal: the subscription period its invoice paid for; null for other orders (and renewals recorded before periods were kept). */
  periodStart: number | null;
  periodEnd: number | null;
  /**
   * Where the buyer reads its receipt at the processor: Stripe's charge receipt (`receipt_url`) or
   * hosted invoice (`hosted_invoice_url`); null when it gave none, and for sandbox orders, whose
   * receipt is the service's own page (docs/customers.md).
   */
  receiptUrl: string | null;
}

/** What a new paid order starts with: nothing refunded, no period. */
export const NEW_ORDER = { status: 'paid', amountRefunded: 0, refundedAt: null, periodStart: null, periodEnd: null, receiptUrl: null } as const satisfies Partial<Order>;

/** How much of the order can still go back. */
export function refundableAmount(order: Pick<Order, 'amount' | 'amountRefunded'>): number {
  return Math.max(0, order.amount - order.amountRefunded);
}

/** Why `amount` cannot be refunded of this order now, or null: a positive whole number up to what is left. */
export function refundAmountProblem(order: Pick<Order, 'amount' | 'amountRefunded'>, amount: number): string | null {
  const left = refundableAmount(order);
  if (!Number.isSafeInteger(amount) || amount < 1) return 'amount must be a positive whole number of the currency’s minor unit.';
  if (amount > left) return `amount must be at most ${left}, what is left to refund of this order.`;
  return null;
}

/**
 * What a license keeps once a renewal is refunded in full: the end of the latest period still paid
 * for. That is the latest end of its other renewals still paid, or else the end of the period its
 * first payment paid (where its earliest renewal starts): for the latest renewal, what was paid
 * before its invoice. null when the refunded renewal has no period recorded.
 */
export function paidEndAfterRefund(refunded: Pick<Order, 'periodStart'>, otherRenewals: Pick<Order, 'status' | 'periodStart' | 'periodEnd'>[]): number | null {
  if (refunded.periodStart === null) return null;
  const firstPaidEnd = Math.min(refunded.periodStart, ...otherRenewals.flatMap((o) => (o.periodStart === null ? [] : [o.periodStart])));
  const stillPaid = otherRenewals.flatMap((o) => (o.status === 'paid' && o.periodEnd !== null ? [o.periodEnd] : []));
  return Math.max(firstPaidEnd, ...stillPaid);
}
