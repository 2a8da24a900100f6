import { DEFAULT_GRACE_DAYS } from '../../domain/product.ts';
import { paidEndAfterRefund, type Order } from '../../domain/order.ts';
import { paidThrough } from '../../domain/subscription.ts';
import type { Deps } from '../../ports/deps.ts';
import type { PaymentReversal } from '../../ports/payment-processor.ts';
import { reissueLicense, type ReissueDeps } from '../licenses/reissue-license.ts';

export type SettleRefundDeps = ReissueDeps & Pick<Deps, 'orders' | 'products' | 'connections' | 'subscriptions'>;

/**
 * Records that money of an order went back (the refunded total rises to `total`; with
 * `expectRefunded`, only from that state) and, once all of it has, takes back what it paid for.
 * Returns the order as it stands and whether this call recorded the change. Every step is
 * conditional and idempotent: a repeat, or a run after an interrupted one, finishes what is left.
 */
export async function settleRefund(deps: SettleRefundDeps, order: Order, total: number, expectRefunded?: number): Promise<{ order: Order; recorded: boolean }> {
  const changed = await deps.orders.refund(order.id, total, deps.clock.now(), expectRefunded);
  const current = changed ?? (await deps.orders.findById(order.id)) ?? order;
  if (current.status === 'refunded') await takeBack(deps, current);
  return { order: current, recorded: changed !== null };
}

/**
 * What a fully refunded order paid for goes: a purchase's or checkout's license is revoked (a
 * subscription's first payment included, also when it came at the end of its free trial); a renewal's license is cut back to the end of the latest
 * period still paid for, plus grace (for the latest renewal: what was paid before its invoice), in a
 * compare-and-swap re-sign that never lengthens it. A renewal recorded without its period changes nothing.
 */
export async function takeBack(deps: SettleRefundDeps, order: Order): Promise<void> {
  if (order.source !== 'renewal' || (await firstChargeAfterTrial(deps, order))) {
    await deps.licenses.update(order.licenseId, { storedStatus: 'revoked' }, { storedStatus: 'active' });
    return;
  }
  const renewals = (await deps.orders.findByLicense(order.licenseId)).filter((o) => o.source === 'renewal' && o.id !== order.id);
  const paidEnd = paidEndAfterRefund(order, renewals);
  if (paidEnd === null) return;
  const license = await deps.licenses.findById(order.licenseId);
  if (!license) return;
  const product = await deps.products.get(license.developerId, license.productId);
  const expiresAt = paidThrough(paidEnd, product?.graceDays ?? DEFAULT_GRACE_DAYS);
  await reissueLicense(deps, order.licenseId, (current) => (current.expiresAt !== null && current.expiresAt > expiresAt ? { expiresAt } : null));
}

/** The charge at the end of a subscription's free trial: its first payment, though a renewal by source. */
async function firstChargeAfterTrial(deps: SettleRefundDeps, order: Order): Promise<boolean> {
  const subscription = await deps.subscriptions.findByLicense(order.licenseId);
  return subscription?.trialEnd != null && order.periodStart === subscription.trialEnd;
}

/**
 * A processor's refund or lost dispute: it is kept first (an order recorded later settles it: the
 * processor's state decides, not the order events arrive in), then the orders its payment paid
 * record it and give back what they paid for. They are found by the payment, or else by its
 * invoice: the one an older API version's charge names, or the one the processor says it paid (a
 * renewal recorded without its payment). A payment of none of ours (a seller's own sale on their
 * account), or an event from an account that is not the order's seller's, changes nothing.
 */
export async function reversePayment(deps: SettleRefundDeps & Pick<Deps, 'processor'>, reversal: PaymentReversal): Promise<void> {
  await deps.orders.recordReversal(reversal, deps.clock.now());
  let orders = await deps.orders.findByPayment(reversal.paymentId);
  if (orders.length === 0) {
    const invoiceId = reversal.invoiceId ?? (reversal.accountId ? await deps.processor.invoiceOfPayment(reversal.paymentId, reversal.accountId) : null);
    if (invoiceId && !reversal.invoiceId) await deps.orders.recordReversal({ ...reversal, invoiceId }, deps.clock.now());
    const byInvoice = invoiceId ? await deps.orders.findBySource(invoiceId) : null;
    orders = byInvoice?.source === 'renewal' ? [byInvoice] : [];
  }
  for (const order of orders) await settleReversal(deps, order, reversal);
}

/**
 * A just-recorded order whose money was reported gone back before it existed (a refund delivered
 * before its checkout's or invoice's event): it records that now and gives back what it paid for.
 * The order as it stands.
 */
export async function applyReversals(deps: SettleRefundDeps, order: Order): Promise<Order> {
  const reversals = await deps.orders.reversalsOf(order.paymentId, order.source === 'renewal' ? order.sourceId : null);
  let current = order;
  for (const reversal of reversals) current = (await settleReversal(deps, current, reversal)) ?? current;
  return current;
}

/** One reversal on one order, only from the account of the order's seller; null when it is not theirs. */
async function settleReversal(deps: SettleRefundDeps, order: Order, reversal: PaymentReversal): Promise<Order | null> {
  // An event from one seller's account never touches another seller's order.
  if (reversal.accountId !== null && (await deps.connections.accountOf(order.developerId))?.accountId !== reversal.accountId) return null;
  return (await settleRefund(deps, order, reversal.refunded === 'all' ? order.amount : reversal.refunded)).order;
}
