import type { CheckoutOffer } from '../domain/checkout-offer.ts';
import type { SubscriptionTrial } from '../domain/trial.ts';
import type { CheckoutSession, Completion, ProcessorKind } from '../domain/checkout-session.ts';
import type { Product } from '../domain/product.ts';
import type { SubscriptionChange } from '../domain/subscription.ts';

/** What the processor says about one of its checkout sessions. */
export type ProcessorCheckout =
  | { state: 'open' }
  | { state: 'expired' }
  | { state: 'paid'; completion: Completion };

/** A processor's webhook event, reduced to what the service acts on. */
export type PaymentEvent = { eventId: string; type: string } & (
  | { kind: 'checkout_completed'; accountId: string | null; processorSessionId: string; sessionId: string | null }
  | { kind: 'checkout_expired'; processorSessionId: string; sessionId: string | null }
  /** Money of a payment went back: a refund (partial or full) or a lost dispute. */
  | ({ kind: 'payment_reversed' } & PaymentReversal)
  | { kind: 'account_deauthorized'; accountId: string }
  | ({ kind: 'invoice_paid'; invoice: PaidInvoice } & SubscriptionRef)
  | ({ kind: 'invoice_failed' } & SubscriptionRef)
  | ({ kind: 'subscription_changed'; change: Omit<SubscriptionChange, 'asOf'> } & SubscriptionRef)
  | { kind: 'ignored' }
);

/** Which subscription an event is about, and as of when (the event's own time). */
export interface SubscriptionRef {
  accountId: string | null;
  processorSubscriptionId: string;
  /** Our checkout session, from the subscription's metadata: completes it when the event arrives first. */
  sessionId: string | null;
  at: number;
}

/**
 * A payment's money going back, as the processor reports it: the payment, the invoice it paid when
 * the event names one (older Stripe API versions do), and the total gone back so far.
 */
export interface PaymentReversal {
  accountId: string | null;
  paymentId: string;
  invoiceId: string | null;
  /** The total refunded of the payment so far (a cumulative figure: repeats and late events agree); 'all' = a lost dispute or a full refund. */
  refunded: number | 'all';
}

/** A paid subscription invoice: it pays the period [periodStart, periodEnd) (null = not stated). */
export interface PaidInvoice {
  id: string;
  periodStart: number | null;
  periodEnd: number | null;
  /** The subscription's first invoice, paid by its checkout (which records that order itself). */
  first: boolean;
  amount: number;
  currency: string;
  paymentId: string | null;
  /** Where the buyer reads the invoice at the processor (Stripe's hosted_invoice_url); absent or null = none. */
  receiptUrl?: string | null;
}

export interface SavedCardCharge {
  amount: number;
  currency: string;
  accountId: string;
  processorCustomerId: string | null;
  processorPaymentMethodId: string;
  /** Derived from the purchase id and attempt: retries of one attempt never charge twice. */
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
}

/** Money back to the buyer, on the seller's account. */
export interface RefundRequest {
  paymentId: string;
  accountId: string;
  /** In the currency's minor unit. */
  amount: number;
  /** The same key never refunds twice; the same key with another amount is refused (conflict). */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface NewProcessorCheckout {
  session: CheckoutSession;
  product: Product;
  /** What the buyer is told (checkoutOffer): shown on the processor's page too. */
  offer: CheckoutOffer;
  /** A recurring product's free trial: the processor charges nothing until its end. */
  trial: SubscriptionTrial | null;
  accountId: string;
  successUrl: string;
  cancelUrl: string;
}

/**
 * A payment processor on behalf of connected sellers: Stripe, or the sandbox that stands in for it.
 * Failures to reach the processor throw DomainError `processor_error`.
 */
export interface PaymentProcessor {
  readonly kind: ProcessorKind;
  /** The page where a seller authorizes us on their processor account (OAuth). */
  authorizeUrl(state: string, redirectUri: string): string;
  /** Trades the OAuth callback's code for the seller's account id. */
  exchangeCode(code: string): Promise<{ accountId: string }>;
  createCheckout(input: NewProcessorCheckout): Promise<{ processorSessionId: string; url: string }>;
  retrieveCheckout(processorSessionId: string, accountId: string): Promise<ProcessorCheckout>;
  /**
   * Charges a saved card off-session on the seller's account. Declines throw DomainError
   * `card_declined`; a card that needs its holder present throws `authentication_required`.
   * The same idempotency key never charges twice.
   */
  chargeSavedCard(input: SavedCardCharge): Promise<{ paymentId: string }>;
  /** Cancels the subscription at the end of its current period, on the seller's account. */
  cancelSubscriptionAtPeriodEnd(processorSubscriptionId: string, accountId: string): Promise<void>;
  /** Undoes that before the period ends: the subscription renews again, on the seller's account. */
  resumeSubscription(processorSubscriptionId: string, accountId: string): Promise<void>;
  /**
   * A page of the processor's where the subscription's buyer changes the card it renews with
   * (Stripe: a billing-portal session for the subscription's customer on the seller's account),
   * coming back to `returnUrl`. Null where the processor has none (the sandbox has its own form).
   */
  cardUpdateUrl(processorSubscriptionId: string, accountId: string, returnUrl: string): Promise<string | null>;
  /**
   * Refunds part or all of a payment on the seller's account. A payment with less left to refund
   * than asked, or a key reused for another amount, throws ConflictError `conflict`.
   */
  refund(input: RefundRequest): Promise<{ refundId: string }>;
  /**
   * The payment of a paid invoice on the seller's account, for invoices whose event does not say
   * (Stripe's API since 2025-03-31 lists an invoice's payments apart); null when it has none.
   */
  invoicePaymentId(invoiceId: string, accountId: string): Promise<string | null>;
  /** The other way round: the invoice a payment on the seller's account paid, or null (not an invoice's). */
  invoiceOfPayment(paymentId: string, accountId: string): Promise<string | null>;
  /** Verifies the signature over the raw body; throws DomainError `invalid_signature` otherwise. */
  parseWebhook(rawBody: string, signatureHeader: string | null): Promise<PaymentEvent>;
}
