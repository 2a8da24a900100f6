import { NotFoundError } from '../../domain/errors.ts';
import { viewSubscription, type Subscription, type SubscriptionStatus, type SubscriptionView } from '../../domain/subscription.ts';
import type { Deps } from '../../ports/deps.ts';
import type { Page } from '../../ports/page.ts';
import { newestFirstQuery, type NewestFirstInput } from '../licenses/list-licenses.ts';

export const SUBSCRIPTION_LIST_LIMIT = { default: 20, max: 100 };

export type ListSubscriptionsInput = NewestFirstInput<SubscriptionStatus>;

/** A seller's subscriptions, newest first, each with its customer's e-mail. */
export async function listSubscriptions(
  deps: Pick<Deps, 'subscriptions'>,
  developerId: string,
  input: ListSubscriptionsInput,
): Promise<Page<SubscriptionView>> {
  const query = await newestFirstQuery(input, SUBSCRIPTION_LIST_LIMIT, 'subscriptions', (id) => deps.subscriptions.findById(developerId, id));
  const page = await deps.subscriptions.listByDeveloper(developerId, query);
  return { data: page.data.map(viewSubscription), hasMore: page.hasMore };
}

/** One of the seller's subscriptions; another seller's is 404 like an unknown id. */
export async function getSubscription(deps: Pick<Deps, 'subscriptions' | 'customers'>, developerId: string, id: string): Promise<SubscriptionView> {
  const subscription = await deps.subscriptions.findById(developerId, id);
  if (!subscription) throw new NotFoundError('Subscription');
  return withEmail(deps, subscription);
}

export async function withEmail(deps: Pick<Deps, 'customers'>, subscription: Subscription): Promise<SubscriptionView> {
  const customer = await deps.customers.findById(subscription.customerId);
  return viewSubscription({ ...subscription, customerEmail: customer?.email ?? '' });
}
