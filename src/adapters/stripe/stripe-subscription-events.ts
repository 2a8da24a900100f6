import type { SubscriptionStatus } from '../../domain/subscription.ts';
import type { PaymentEvent, SubscriptionRef } from '../../ports/payment-processor.ts';
import { httpsUrl } from './stripe-checkout.ts';

/**
 * Stripe's invoice and subscription events, read for both API generations: before 2025-03-31
 * ("basil") an invoice names `subscription` and `payment_intent` and a subscription its
 * `current_period_end`; since, `parent.subscription_details`, `payments` and the items' periods.
 */
type Obj = Record<string, unknown>;
type Reduced = PaymentEvent | null;

export function toSubscriptionEvent(type: string, object: Obj, account: string | null, createdSeconds: unknown): Reduced {
  const at = typeof createdSeconds === 'number' && Number.isFinite(createdSeconds) ? createdSeconds * 1000 : 0;
  switch (type) {
    case 'invoice.paid':
    case 'invoice.payment_succeeded':
      return invoicePaid(object, account, at);
    case 'invoice.payment_failed': {
      const ref = invoiceRef(object, account, at);
      return ref && { kind: 'invoice_failed', ...ref, eventId: '', type };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return subscriptionChanged(type, object, account, at);
  }
  return null;
}

function invoicePaid(object: Obj, account: string | null, at: number): Reduced {
  const ref = invoiceRef(object, account, at);
  const id = text(object.id);
  if (!ref || !id) return null;
  const lines = (record(object.lines)?.data as unknown[] | undefined) ?? [];
  const ends = lines.map((line) => seconds(record(record(line)?.period)?.end)).filter((end): end is number => end !== null);
  const starts = lines.map((line) => seconds(record(record(line)?.period)?.start)).filter((start): start is number => start !== null);
  const payments = (record(object.payments)?.data as unknown[] | undefined) ?? [];
  const paymentId = idOf(object.payment_intent) ?? idOf(record(record(payments[0])?.payment)?.payment_intent);
  return {
    eventId: '',
    type: '',
    kind: 'invoice_paid',
    ...ref,
    invoice: {
      id,
      periodStart: starts.length ? Math.min(...starts) : null,
      periodEnd: ends.length ? Math.max(...ends) : null,
      first: object.billing_reason === 'subscription_create',
      amount: typeof object.amount_paid === 'number' ? object.amount_paid : 0,
      currency: text(object.currency) ?? '',
      paymentId,
      receiptUrl: httpsUrl(object.hosted_invoice_url),
    },
  };
}

function invoiceRef(object: Obj, account: string | null, at: number): SubscriptionRef | null {
  const details = record(record(object.parent)?.subscription_details) ?? record(object.subscription_details);
  const processorSubscriptionId = idOf(object.subscription) ?? idOf(details?.subscription);
  if (!processorSubscriptionId) return null;
  return { accountId: account, processorSubscriptionId, sessionId: ourSession(details?.metadata), at };
}

function subscriptionChanged(type: string, object: Obj, account: string | null, at: number): Reduced {
  const processorSubscriptionId = text(object.id);
  if (!processorSubscriptionId) return null;
  const items = (record(object.items)?.data as unknown[] | undefined) ?? [];
  const itemEnds = items.map((item) => seconds(record(item)?.current_period_end)).filter((end): end is number => end !== null);
  const periodEnd = seconds(object.current_period_end) ?? (itemEnds.length ? Math.max(...itemEnds) : null);
  const status = type === 'customer.subscription.deleted' ? 'canceled' : statusOf(object.status);
  const change = {
    ...(status ? { status } : {}),
    ...(typeof object.cancel_at_period_end === 'boolean' ? { cancelAtPeriodEnd: object.cancel_at_period_end } : {}),
    ...(periodEnd !== null ? { currentPeriodEnd: periodEnd } : {}),
  };
  return { eventId: '', type: '', kind: 'subscription_changed', accountId: account, processorSubscriptionId, sessionId: ourSession(object.metadata), at, change };
}

/** Stripe's eight statuses in our three; `incomplete` (not paid yet) says nothing. */
function statusOf(value: unknown): SubscriptionStatus | null {
  switch (value) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
    case 'unpaid':
    case 'paused':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
  }
  return null;
}

function ourSession(metadata: unknown): string | null {
  return text(record(metadata)?.checkout_session_id);
}

function seconds(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value * 1000 : null;
}

function record(value: unknown): Obj | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : null;
}

function idOf(value: unknown): string | null {
  return text(record(value)?.id) ?? text(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= 255 ? value : null;
}
