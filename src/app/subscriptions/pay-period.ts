import { NEW_ORDER, type Order } from '../../domain/order.ts';
import { DEFAULT_GRACE_DAYS } from '../../domain/product.ts';
import { paidThrough, type Subscription } from '../../domain/subscription.ts';
import type { Deps } from '../../ports/deps.ts';
import type { PaidInvoice } from '../../ports/payment-processor.ts';
import { renewLicense } from '../licenses/reissue-license.ts';
import { applyReversals, takeBack, type SettleRefundDeps } from '../orders/settle-refund.ts';
import { receiptContext, receiptFor, type ReceiptDeps, type ReceiptFor } from '../mail/receipt.ts';

export type PayPeriodDeps = SettleRefundDeps & ReceiptDeps & Pick<Deps, 'ids' | 'products' | 'subscriptions' | 'orders' | 'customers'>;

/**
 * A paid invoice of a subscription, from Stripe's invoice.paid or the sandbox's clock: the
 * subscription is active through the period, the renewal is an order (the first invoice's is the
 * checkout's own), and the license is extended to the period's end plus the product's grace days,
 * with a fresh key. Every step is idempotent and order-independent (a maximum, a keyed order), so
 * a repeated or late invoice changes nothing it should not. A renewal's receipt is queued with the
 * license's extension, so only the invoice that extends it mails one (the first invoice's receipt is
 * the checkout's). A renewal whose order was refunded in full extends nothing, also when its refund
 * was reported first (the order settles it as it is recorded) or while it is extended (taken back after).
 */
export async function payPeriod(deps: PayPeriodDeps, subscription: Subscription, invoice: PaidInvoice, asOf: number): Promise<void> {
  const periodEnd = invoice.periodEnd;
  const updated = await deps.subscriptions.update(subscription.processorSubscriptionId, {
    // Paid for the latest period known: the subscription is in good standing again.
    ...(periodEnd !== null && periodEnd >= subscription.currentPeriodEnd ? { status: 'active' as const } : {}),
    ...(periodEnd !== null ? { currentPeriodEnd: periodEnd } : {}),
    asOf,
  });
  const order = invoice.first ? null : await applyReversals(deps, await recordRenewal(deps, updated ?? subscription, invoice));
  // An invoice refunded before this (repeated, or late) report of its payment extends nothing.
  if (periodEnd === null || order?.status === 'refunded') return;
  // The trial's own period (Stripe's $0 first invoice) paid nothing: the trial license keeps its end.
  if (subscription.trialEnd !== null && periodEnd <= subscription.trialEnd) return;
  const product = await deps.products.get(subscription.developerId, subscription.productId);
  const receipt = invoice.first ? undefined : await renewalReceipt(deps, subscription, invoice);
  await renewLicense(deps, subscription.licenseId, paidThrough(periodEnd, product?.graceDays ?? DEFAULT_GRACE_DAYS), receipt);
  // A refund recorded while this extended the license may have read it before the extension: this
  // read after it sees that refund, or the refund's own take-back saw the extension.
  const now = order && (await deps.orders.findById(order.id));
  if (now?.status === 'refunded') await takeBack(deps, now);
}

async function renewalReceipt(deps: PayPeriodDeps, subscription: Subscription, invoice: PaidInvoice): Promise<ReceiptFor | undefined> {
  const customer = await deps.customers.findById(subscription.customerId);
  if (!customer) return undefined;
  const context = await receiptContext(deps, subscription.developerId, subscription.productId, customer.email);
  return receiptFor(deps, context, { kind: 'renewal', amount: invoice.amount, currency: invoice.currency });
}

async function recordRenewal(deps: PayPeriodDeps, subscription: Subscription, invoice: PaidInvoice): Promise<Order> {
  return deps.orders.record({
    id: deps.ids.next('ord'),
    developerId: subscription.developerId,
    customerId: subscription.customerId,
    productId: subscription.productId,
    licenseId: subscription.licenseId,
    source: 'renewal',
    sourceId: invoice.id,
    amount: invoice.amount,
    currency: invoice.currency,
    processor: subscription.processor,
    paymentId: invoice.paymentId,
    processorReference: invoice.id,
    ...NEW_ORDER,
    receiptUrl: invoice.receiptUrl ?? null,
    createdAt: deps.clock.now(),
    periodStart: invoice.periodStart,
    periodEnd: invoice.periodEnd,
  });
}
