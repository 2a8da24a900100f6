import type { BillingInterval } from './product.ts';

/** A hosted checkout: pending until paid, expired 30 minutes after it was created unless paid. */
export const CHECKOUT_LIFETIME_MS = 30 * 60_000;

export const CHECKOUT_STATUSES = ['pending', 'complete', 'expired'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];
export const PROCESSOR_KINDS = ['sandbox', 'stripe'] as const;
export type ProcessorKind = (typeof PROCESSOR_KINDS)[number];

export interface CheckoutSession {
  id: string;
  developerId: string;
  productId: string;
  /** The product's price and currency when the session was made: later price changes do not apply. */
  amount: number;
  currency: string;
  email: string | null;
  successUrl: string;
  cancelUrl: string;
  processor: ProcessorKind;
  /** The processor's own session id (Stripe's `cs_…`); the sandbox uses ours. */
  processorSessionId: string | null;
  checkoutUrl: string | null;
  /** `complete` and `expired` are stored once known; a pending session past its expiry reads as expired. */
  storedStatus: CheckoutStatus;
  createdAt: number;
  expiresAt: number;
  completedAt: number | null;
  licenseId: string | null;
  customerId: string | null;
  /** The processor's payment (Stripe PaymentIntent) that paid it: refunds and disputes find the license by it. */
  paymentId: string | null;
  /** When a pending session was last checked with the processor (reconciliation is throttled). */
  reconciledAt: number | null;
}

export function checkoutStatus(session: Pick<CheckoutSession, 'storedStatus' | 'expiresAt'>, now: number): CheckoutStatus {
  if (session.storedStatus !== 'pending') return session.storedStatus;
  return now >= session.expiresAt ? 'expired' : 'pending';
}

/** What a processor knows about a paid checkout: who paid, and the card they saved. */
export interface Completion {
  email: string;
  phone: string | null;
  processorCustomerId: string | null;
  paymentId: string | null;
  card: SavedCardDetails | null;
  /** A recurring product's checkout: the subscription it started (absent or null = a one-off payment). */
  subscription?: ProcessorSubscription | null;
  /** The processor's receipt of the payment (Stripe: the charge's receipt_url, or the first invoice's hosted_invoice_url); absent or null = none. */
  receiptUrl?: string | null;
}

/** The subscription a checkout started, as its processor reports it. */
export interface ProcessorSubscription {
  processorSubscriptionId: string;
  /** The end of the first period, paid by the checkout (or, with a trial, the trial's end). */
  currentPeriodEnd: number;
  interval: BillingInterval;
  /** The end of its free trial, when it started with one (nothing charged at checkout); else null. */
  trialEnd: number | null;
}

export interface SavedCardDetails {
  processorPaymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

const HTTP_URL = /^https?:\/\/[^\s]+$/i;

/** Redirect targets must be absolute http(s) URLs: no javascript:, data: or relative paths. */
export function isRedirectUrl(value: string): boolean {
  if (!HTTP_URL.test(value) || value.length > 2048) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}
