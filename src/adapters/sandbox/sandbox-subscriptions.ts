import { createHash } from 'node:crypto';
import type { Completion } from '../../domain/checkout-session.ts';
import type { BillingInterval } from '../../domain/product.ts';
import { periodEndAfter } from '../../domain/subscription.ts';
import { savedCardBehaviour } from './sandbox-payment.ts';

const sha16 = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 16);
const DECLINING = 'sub_sandbox_decline_';

/**
 * A sandbox Pay of a recurring product starts a subscription whose first period runs one interval
 * from the payment. Its id says whether its renewals pay: a card saved as one of Stripe's
 * off-session failure cards (4000 0000 0000 0341, 4000 0027 6000 3184) fails every renewal.
 */
export function withSandboxSubscription(completion: Completion, sessionId: string, interval: BillingInterval, now: number): Completion {
  const fails = completion.card !== null && savedCardBehaviour(completion.card.processorPaymentMethodId) !== 'pays';
  const processorSubscriptionId = `${fails ? DECLINING : 'sub_sandbox_'}${sha16(sessionId)}`;
  return { ...completion, subscription: { processorSubscriptionId, currentPeriodEnd: periodEndAfter(now, interval), interval } };
}

/** Whether the sandbox subscription's renewals pay. */
export function sandboxRenewalPays(processorSubscriptionId: string): boolean {
  return !processorSubscriptionId.startsWith(DECLINING);
}
