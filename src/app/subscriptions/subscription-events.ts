import { DomainError } from '../../domain/errors.ts';
import type { Subscription } from '../../domain/subscription.ts';
import type { Deps } from '../../ports/deps.ts';
import type { PaidInvoice, PaymentEvent } from '../../ports/payment-processor.ts';
import { completeCheckout, type CompleteDeps } from '../checkout/complete-checkout.ts';
import { payPeriod, type PayPeriodDeps } from './pay-period.ts';

export type SubscriptionEvent = Extract<PaymentEvent, { kind: 'invoice_paid' | 'invoice_failed' | 'subscription_changed' }>;
type EventDeps = CompleteDeps & PayPeriodDeps & Pick<Deps, 'processor' | 'connections'>;

/**
 * A processor's news about a subscription, in whatever order it comes: paid invoices renew, a failed
 * one makes it past_due (its license runs to the paid period's end plus grace, then expires), the
 * processor's status, period end and cancel-at-period-end are recorded (canceled is final; the
 * license is never shortened: a cancelled subscription runs to its end).
 */
export async function applySubscriptionEvent(deps: EventDeps, event: SubscriptionEvent): Promise<void> {
  switch (event.kind) {
    case 'invoice_paid': {
      const subscription = await subscriptionOf(deps, event);
      if (subscription) await payPeriod(deps, subscription, await withPayment(deps, subscription, event), event.at);
      return;
    }
    case 'invoice_failed':
      // A failed first invoice means the checkout was never paid: nothing of ours to mark.
      await deps.subscriptions.update(event.processorSubscriptionId, { status: 'past_due', asOf: event.at });
      return;
    case 'subscription_changed': {
      // An incomplete subscription (no status of ours) is one whose checkout is not paid yet.
      if (!event.change.status) {
        await deps.subscriptions.update(event.processorSubscriptionId, { ...event.change, asOf: event.at });
        return;
      }
      const subscription = await subscriptionOf(deps, event);
      if (subscription) await deps.subscriptions.update(subscription.processorSubscriptionId, { ...event.change, asOf: event.at });
      return;
    }
  }
}

/**
 * A renewal's invoice with its payment named, so a refund or dispute of that payment finds its
 * order: Stripe's events before 2025-03-31 name it on the invoice, later ones only when the
 * invoice's payments are included, and otherwise the processor is asked.
 */
async function withPayment(deps: EventDeps, subscription: Subscription, event: Extract<SubscriptionEvent, { kind: 'invoice_paid' }>): Promise<PaidInvoice> {
  const invoice = event.invoice;
  if (invoice.first || invoice.paymentId !== null || subscription.processor !== deps.processor.kind) return invoice;
  const accountId = event.accountId ?? (await deps.connections.accountOf(subscription.developerId))?.accountId;
  return accountId ? { ...invoice, paymentId: await deps.processor.invoicePaymentId(invoice.id, accountId) } : invoice;
}

/**
 * Ours, or null when it is not (a seller's own subscriptions on their account send events too).
 * One that arrives before its checkout's completion is completed first, from the checkout session
 * its metadata names, exactly as checkout.session.completed would; if the processor does not call
 * that session paid yet, the event fails so the processor delivers it again later.
 */
async function subscriptionOf(deps: EventDeps, event: SubscriptionEvent): Promise<Subscription | null> {
  const known = await deps.subscriptions.findByProcessorId(event.processorSubscriptionId);
  if (known || !event.sessionId) return known;
  const session = await deps.checkouts.findById(event.sessionId);
  if (!session?.processorSessionId || session.processor !== deps.processor.kind) return null;
  const accountId = (await deps.connections.accountOf(session.developerId))?.accountId;
  // A session of another seller's account is not this event's to complete.
  if (!accountId || (event.accountId !== null && event.accountId !== accountId)) return null;
  const found = await deps.processor.retrieveCheckout(session.processorSessionId, accountId);
  if (found.state === 'expired') return null;
  if (found.state === 'open') {
    throw new DomainError('processor_error', 'The subscription’s checkout is not complete at the processor yet; deliver the event again later.', { processor: deps.processor.kind });
  }
  if (found.completion.subscription?.processorSubscriptionId !== event.processorSubscriptionId) return null;
  await completeCheckout(deps, session.id, found.completion);
  return deps.subscriptions.findByProcessorId(event.processorSubscriptionId);
}
