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
  /** A refund or a lost dispute: the license this payment bought is revoked. */
  | { kind: 'payment_reversed'; paymentId: string }
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

/** A paid subscription invoice: it pays the period ending at `periodEnd` (null = not stated). */
export interface PaidInvoice {
  id: string;
  periodEnd: number | null;
  /** The subscription's first invoice, paid by its checkout (which records that order itself). */
  first: boolean;
  amount: number;
  currency: string;
  paymentId: string | null;
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

export interface NewProcessorCheckout {
  session: CheckoutSession;
  product: Product;
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
  /** Verifies the signature over the raw body; throws DomainError `invalid_signature` otherwise. */
  parseWebhook(rawBody: string, signatureHeader: string | null): Promise<PaymentEvent>;
}
