import type Stripe from 'stripe';
import type { ProcessorSubscription, SavedCardDetails } from '../../domain/checkout-session.ts';
import { DomainError } from '../../domain/errors.ts';
import { BILLING_INTERVALS } from '../../domain/product.ts';
import { isOneOf } from '../../domain/vocabulary.ts';
import { cardOf, httpsUrl } from './stripe-checkout.ts';

type Obj = Record<string, unknown>;

/** Expanded on every retrieval: a payment session ignores them, a subscription session needs them. */
export const SUBSCRIPTION_EXPANSIONS = ['subscription.default_payment_method', 'invoice.payments'];

/**
 * A paid subscription-mode session (retrieved with SUBSCRIPTION_EXPANSIONS): the subscription, the
 * first invoice's payment and the card the subscription renews with. The period end is read where
 * either API generation keeps it (the subscription, or since 2025-03-31 its items).
 */
export function subscriptionOfSession(s: Stripe.Checkout.Session): { subscription: ProcessorSubscription; paymentId: string | null; card: SavedCardDetails | null; receiptUrl: string | null } {
  const sub = record(s.subscription);
  const items = (record(sub?.items)?.data as unknown[] | undefined) ?? [];
  const item = record(items[0]);
  const periodEnd = seconds(sub?.current_period_end) ?? seconds(item?.current_period_end);
  const interval = record(record(item?.price)?.recurring)?.interval ?? record(item?.plan)?.interval;
  if (!sub || typeof sub.id !== 'string' || periodEnd === null || !isOneOf(BILLING_INTERVALS, interval)) {
    throw new DomainError('processor_error', 'Stripe did not describe the checkout’s subscription; try again later.', { processor: 'stripe' });
  }
  const invoice = record(s.invoice);
  const payments = (record(invoice?.payments)?.data as unknown[] | undefined) ?? [];
  const paymentId = idOf(invoice?.payment_intent) ?? idOf(record(record(payments[0])?.payment)?.payment_intent);
  const method = record(sub.default_payment_method) as Stripe.PaymentMethod | null;
  // A trialing subscription (Stripe's status; ours is `active` with its trialEnd) was charged nothing yet.
  const trialEnd = sub.status === 'trialing' ? seconds(sub.trial_end) : null;
  return { subscription: { processorSubscriptionId: sub.id, currentPeriodEnd: periodEnd, interval, trialEnd }, paymentId, card: cardOf(method), receiptUrl: httpsUrl(invoice?.hosted_invoice_url) };
}

function seconds(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value * 1000 : null;
}

function record(value: unknown): Obj | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : null;
}

function idOf(value: unknown): string | null {
  const id = record(value)?.id ?? value;
  return typeof id === 'string' && id.length > 0 ? id : null;
}
