import { createHash } from 'node:crypto';
import type { Completion } from '../../domain/checkout-session.ts';
import type { BillingInterval } from '../../domain/product.ts';
import { periodEndAfter } from '../../domain/subscription.ts';
import type { SubscriptionTrial } from '../../domain/trial.ts';
import { savedCardBehaviour } from './sandbox-payment.ts';

const sha16 = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 16);
const DECLINING = 'sub_sandbox_decline_';

/**
 * A sandbox Pay of a recurring product starts a subscription whose first period runs one interval
 * from the payment, or, with a trial, to the trial's end (nothing is charged before; the billing
 * clock charges the first period then). Its id says whether its renewals pay: a card saved as one of Stripe's
 * off-session failure cards (4000 0000 0000 0341, 4000 0027 6000 3184) fails every renewal.
 */
export function withSandboxSubscription(completion: Completion, sessionId: string, interval: BillingInterval, now: number, trial: SubscriptionTrial | null): Completion {
  const fails = completion.card !== null && savedCardBehaviour(completion.card.processorPaymentMethodId) !== 'pays';
  const processorSubscriptionId = `${fails ? DECLINING : 'sub_sandbox_'}${sha16(sessionId)}`;
  const currentPeriodEnd = trial?.end ?? periodEndAfter(now, interval);
  return {
    ...completion,
    ...(trial ? { paymentId: null } : {}),
    subscription: { processorSubscriptionId, currentPeriodEnd, interval, trialEnd: trial?.end ?? null },
  };
}

/** Whether the sandbox subscription's renewals pay. */
export function sandboxRenewalPays(processorSubscriptionId: string): boolean {
  return !processorSubscriptionId.startsWith(DECLINING);
}
