import { NotFoundError } from '../../domain/errors.ts';
import type { Subscription, SubscriptionStatus } from '../../domain/subscription.ts';
import type { Deps } from '../../ports/deps.ts';
import type { Page } from '../../ports/page.ts';
import type { DeveloperSubscription } from '../../ports/subscription-repository.ts';
import { newestFirstQuery, type NewestFirstInput } from '../licenses/list-licenses.ts';

export const SUBSCRIPTION_LIST_LIMIT = { default: 20, max: 100 };

export type ListSubscriptionsInput = NewestFirstInput<SubscriptionStatus>;

/**
 * A subscription as its seller sees it. `updatedAt` stays inside: it is the processor's time of the
 * news held (the ordering rule's), which the sandbox clock may put in the future.
 */
export type SubscriptionView = Omit<Subscription, 'developerId' | 'updatedAt'> & { customerEmail: string };

export function subscriptionView({ developerId: _d, updatedAt: _u, ...rest }: DeveloperSubscription): SubscriptionView {
  return rest;
}

/** A seller's subscriptions, newest first, each with its customer's e-mail. */
export async function listSubscriptions(
  deps: Pick<Deps, 'subscriptions'>,
  developerId: string,
  input: ListSubscriptionsInput,
): Promise<Page<SubscriptionView>> {
  const query = await newestFirstQuery(input, SUBSCRIPTION_LIST_LIMIT, 'subscriptions', (id) => deps.subscriptions.findById(developerId, id));
  const page = await deps.subscriptions.listByDeveloper(developerId, query);
  return { data: page.data.map(subscriptionView), hasMore: page.hasMore };
}

/** One of the seller's subscriptions; another seller's is 404 like an unknown id. */
export async function getSubscription(deps: Pick<Deps, 'subscriptions' | 'customers'>, developerId: string, id: string): Promise<SubscriptionView> {
  const subscription = await deps.subscriptions.findById(developerId, id);
  if (!subscription) throw new NotFoundError('Subscription');
  return withEmail(deps, subscription);
}

export async function withEmail(deps: Pick<Deps, 'customers'>, subscription: Subscription): Promise<SubscriptionView> {
  const customer = await deps.customers.findById(subscription.customerId);
  return subscriptionView({ ...subscription, customerEmail: customer?.email ?? '' });
}
