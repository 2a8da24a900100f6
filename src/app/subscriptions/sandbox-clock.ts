import { periodEndAfter, type RenewalOutcome } from '../../domain/subscription.ts';
import type { Deps } from '../../ports/deps.ts';
import { payPeriod, type PayPeriodDeps } from './pay-period.ts';

/** Subscriptions billed per call, and periods per subscription: a far jump is bounded work. */
const MAX_SUBSCRIPTIONS = 500;
const MAX_PERIODS = 120;

export interface SandboxBill {
  subscriptionId: string;
  outcome: RenewalOutcome;
  periods: number;
}

/**
 * The sandbox's billing run at `at` (its clock: the real time plus the developer's offset), for one
 * developer: every period of theirs that ended is billed as Stripe would, through the same
 * payPeriod an invoice.paid takes; a failing card makes it past_due, a subscription cancelled at
 * period end ends instead. Invoice ids derive from the subscription and the period, so a repeated
 * run records nothing twice.
 */
export async function runSandboxBilling(
  deps: PayPeriodDeps & Pick<Deps, 'subscriptions'>,
  developerId: string,
  at: number,
  renewalPays: (processorSubscriptionId: string) => boolean,
): Promise<SandboxBill[]> {
  const bills: SandboxBill[] = [];
  for (const due of await deps.subscriptions.listDueSandbox(developerId, at, MAX_SUBSCRIPTIONS)) {
    let subscription = due;
    let periods = 0;
    let outcome: SandboxBill['outcome'] = 'renewed';
    while (subscription.currentPeriodEnd <= at && periods < MAX_PERIODS) {
      const start = subscription.currentPeriodEnd;
      if (subscription.cancelAtPeriodEnd) {
        await deps.subscriptions.update(subscription.processorSubscriptionId, { status: 'canceled', asOf: start });
        outcome = 'canceled';
        break;
      }
      if (!renewalPays(subscription.processorSubscriptionId)) {
        await deps.subscriptions.update(subscription.processorSubscriptionId, { status: 'past_due', asOf: start });
        outcome = 'payment_failed';
        break;
      }
      const invoiceId = `in_sandbox_${subscription.id}_${start}`;
      const periodEnd = periodEndAfter(start, subscription.interval);
      const product = await deps.products.get(subscription.developerId, subscription.productId);
      const invoice = { id: invoiceId, periodStart: start, periodEnd, first: false, amount: product?.price ?? 0, currency: product?.currency ?? 'usd', paymentId: `pi_${invoiceId}` };
      await payPeriod(deps, subscription, invoice, start);
      subscription = (await deps.subscriptions.findByProcessorId(subscription.processorSubscriptionId)) ?? subscription;
      periods++;
    }
    bills.push({ subscriptionId: subscription.id, outcome, periods });
  }
  return bills;
}
