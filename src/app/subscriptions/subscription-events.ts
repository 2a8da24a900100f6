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
 * license is never shortened: a cancelled subscription runs to its end). Every branch acts only on
 * a subscription of ours and only for an event from its seller's connected account.
 */
export async function applySubscriptionEvent(deps: EventDeps, event: SubscriptionEvent): Promise<void> {
  // A failed invoice, or a change with no status of ours (incomplete), comes before any payment:
  // only a subscription already known is theirs; the others may complete its checkout first.
  const completes = event.kind === 'invoice_paid' || (event.kind === 'subscription_changed' && event.change.status !== undefined);
  const subscription = completes ? await subscriptionOf(deps, event) : await deps.subscriptions.findByProcessorId(event.processorSubscriptionId);
  if (!subscription || !(await fromSellersAccount(deps, subscription, event.accountId))) return;
  switch (event.kind) {
    case 'invoice_paid': {
      const invoice = await withPayment(deps, subscription, event);
      if (await mismatched(deps, subscription, invoice)) return;
      await payPeriod(deps, subscription, invoice, event.at);
      return;
    }
    case 'invoice_failed':
      await deps.subscriptions.update(subscription.processorSubscriptionId, { status: 'past_due', asOf: event.at });
      return;
    case 'subscription_changed':
      await deps.subscriptions.update(subscription.processorSubscriptionId, { ...event.change, asOf: event.at });
      return;
  }
}

/** The event comes from the account the subscription's seller connected (an event naming none does not). */
async function fromSellersAccount(deps: EventDeps, subscription: Subscription, accountId: string | null): Promise<boolean> {
  if (subscription.processor !== deps.processor.kind || accountId === null) return false;
  return (await deps.connections.accountOf(subscription.developerId))?.accountId === accountId;
}

/**
 * A renewal's invoice that did not pay the subscription's price (its checkout order's amount and
 * currency; bought with a trial, the product's price): it extends nothing, and its seller hears of
 * it (subscription.payment_mismatch). The first invoice is the checkout's own (a trial's is $0).
 */
async function mismatched(deps: EventDeps, subscription: Subscription, invoice: PaidInvoice): Promise<boolean> {
  if (invoice.first) return false;
  const expected = await priceOf(deps, subscription);
  if (!expected || (expected.amount === invoice.amount && expected.currency === invoice.currency.toLowerCase())) return false;
  const mismatch = { invoiceId: invoice.id, amount: invoice.amount, currency: invoice.currency, expectedAmount: expected.amount, expectedCurrency: expected.currency };
  await deps.subscriptions.reportPaymentMismatch(subscription, mismatch);
  return true;
}

async function priceOf(deps: EventDeps, subscription: Subscription): Promise<{ amount: number; currency: string } | null> {
  const checkoutOrder = (await deps.orders.findByLicense(subscription.licenseId)).find((o) => o.source === 'checkout');
  if (checkoutOrder) return checkoutOrder;
  const product = await deps.products.get(subscription.developerId, subscription.productId);
  return product && { amount: product.price, currency: product.currency };
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
  // A session of another seller's account (or an event naming none) is not this event's to complete.
  if (!accountId || event.accountId !== accountId) return null;
  const found = await deps.processor.retrieveCheckout(session.processorSessionId, accountId);
  if (found.state === 'expired') return null;
  if (found.state === 'open') {
    throw new DomainError('processor_error', 'The subscription’s checkout is not complete at the processor yet; deliver the event again later.', { processor: deps.processor.kind });
  }
  if (found.completion.subscription?.processorSubscriptionId !== event.processorSubscriptionId) return null;
  await completeCheckout(deps, session.id, found.completion);
  return deps.subscriptions.findByProcessorId(event.processorSubscriptionId);
}
