import { ConflictError, DomainError, NotFoundError } from '../../domain/errors.ts';
import type { Subscription, SubscriptionView } from '../../domain/subscription.ts';
import type { Deps } from '../../ports/deps.ts';
import { withEmail } from './seller-subscriptions.ts';

export type CancelDeps = Pick<Deps, 'clock' | 'subscriptions' | 'customers' | 'connections' | 'processor'>;

/**
 * The seller ends a subscription at the end of its paid period: it is not billed again, and its
 * license runs to that end (plus grace), then expires. The processor is told first, so nothing is
 * recorded here that the processor refused; then the request is recorded in one conditional update
 * (the processor's customer.subscription.updated confirms it later).
 *
 * Idempotent: a subscription already set to end, or already canceled, is answered as it stands and
 * the processor is not called again (a flood of repeats costs one point read each). A seller who
 * resumed it at the processor since is told by that processor's event, after which this call
 * reaches the processor again.
 */
export async function cancelSubscription(deps: CancelDeps, developerId: string, id: string): Promise<SubscriptionView> {
  const subscription = await deps.subscriptions.findById(developerId, id);
  if (!subscription) throw new NotFoundError('Subscription');
  if (subscription.status === 'canceled' || subscription.cancelAtPeriodEnd) return withEmail(deps, subscription);
  await tellProcessor(deps, subscription);
  const marked = await deps.subscriptions.markCancelAtPeriodEnd(developerId, id, deps.clock.now());
  return withEmail(deps, marked ?? subscription);
}

/**
 * A Stripe subscription lives on the seller's connected account; a sandbox one only in the store
 * (its clock reads cancelAtPeriodEnd), whichever processor runs now: null then, nothing to tell.
 */
export async function processorAccountOf(deps: Pick<Deps, 'processor' | 'connections'>, subscription: Subscription, notConnected: string): Promise<string | null> {
  if (subscription.processor === 'sandbox') return null;
  if (deps.processor.kind !== subscription.processor) {
    throw new ConflictError('conflict', `This subscription is billed by ${subscription.processor}, which this service is not configured for.`);
  }
  const account = await deps.connections.accountOf(subscription.developerId);
  if (!account) throw new DomainError('not_connected', notConnected);
  return account.accountId;
}

async function tellProcessor(deps: CancelDeps, subscription: Subscription): Promise<void> {
  const account = await processorAccountOf(deps, subscription, 'Connect your payment account again to cancel its subscriptions (POST /v1/connect/start).');
  if (account) await deps.processor.cancelSubscriptionAtPeriodEnd(subscription.processorSubscriptionId, account);
}
