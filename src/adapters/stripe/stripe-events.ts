import type { PaymentEvent, PaymentReversal } from '../../ports/payment-processor.ts';
import { toSubscriptionEvent } from './stripe-subscription-events.ts';

/**
 * A verified Stripe event, read defensively: events arrive in the account's API version, so only
 * the few fields acted on are trusted, and a missing one makes the event ignored, not a crash.
 */
interface RawEvent {
  id?: unknown;
  type?: unknown;
  account?: unknown;
  created?: unknown;
  data?: { object?: Record<string, unknown> };
}

/** Reduces a Stripe event to what the service acts on; everything else is acknowledged and ignored. */
export function toPaymentEvent(verified: object): PaymentEvent {
  const event = verified as RawEvent;
  const eventId = text(event.id) ?? '';
  const type = text(event.type) ?? '';
  const base = { eventId, type };
  const object = event.data?.object ?? {};
  const account = text(event.account);

  switch (type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      // A delayed payment method completes the session unpaid; its money arrives with async_payment_succeeded.
      const settled = type === 'checkout.session.async_payment_succeeded' || object.payment_status !== 'unpaid';
      const id = text(object.id);
      if (!settled || !id) break;
      return { ...base, kind: 'checkout_completed', accountId: account, processorSessionId: id, sessionId: ourSessionId(object) };
    }
    case 'checkout.session.expired': {
      const id = text(object.id);
      if (!id) break;
      return { ...base, kind: 'checkout_expired', processorSessionId: id, sessionId: ourSessionId(object) };
    }
    case 'charge.refunded':
    case 'charge.dispute.closed': {
      const reversal = type === 'charge.refunded' ? refundOf(object, account) : lostDisputeOf(object, account);
      if (!reversal) break;
      return { ...base, kind: 'payment_reversed', ...reversal };
    }
    case 'account.application.deauthorized':
      if (!account) break;
      return { ...base, kind: 'account_deauthorized', accountId: account };
    default: {
      const reduced = toSubscriptionEvent(type, object, account, event.created);
      if (reduced) return { ...reduced, ...base };
    }
  }
  return { ...base, kind: 'ignored' };
}

/**
 * A Charge's refunds so far (`amount_refunded` is cumulative, `refunded` says all of it). Before
 * 2025-03-31 a charge of an invoice names it (`invoice`); since, only its payment does.
 */
function refundOf(charge: Record<string, unknown>, account: string | null): PaymentReversal | null {
  const paymentId = idOf(charge.payment_intent);
  const amount = charge.amount_refunded;
  if (!paymentId) return null;
  const refunded = charge.refunded === true ? 'all' : typeof amount === 'number' && Number.isSafeInteger(amount) && amount > 0 ? amount : null;
  if (refunded === null) return null;
  return { accountId: account, paymentId, invoiceId: idOf(charge.invoice), refunded };
}

/** A closed dispute the seller lost: all of the payment went back. Won, warning_closed and the rest change nothing. */
function lostDisputeOf(dispute: Record<string, unknown>, account: string | null): PaymentReversal | null {
  const charge = dispute.charge && typeof dispute.charge === 'object' ? (dispute.charge as Record<string, unknown>) : null;
  const paymentId = idOf(dispute.payment_intent) ?? idOf(charge?.payment_intent);
  if (dispute.status !== 'lost' || !paymentId) return null;
  return { accountId: account, paymentId, invoiceId: idOf(charge?.invoice), refunded: 'all' };
}

function ourSessionId(object: Record<string, unknown>): string | null {
  const metadata = object.metadata as Record<string, unknown> | null | undefined;
  return text(object.client_reference_id) ?? text(metadata?.checkout_session_id) ?? null;
}

function idOf(value: unknown): string | null {
  if (value && typeof value === 'object') return text((value as { id?: unknown }).id);
  return text(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}
