import { cancelSubscription } from '../../../app/subscriptions/cancel-subscription.ts';
import { getSubscription, listSubscriptions } from '../../../app/subscriptions/seller-subscriptions.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withSecretKey } from '../auth.ts';
import { errorsOf } from '../schemas.ts';
import { CanceledSubscription, Subscription, SubscriptionList, SubscriptionListQuery, SubscriptionParams } from '../subscription-schemas.ts';

const tags = ['Subscriptions'];
const security = SECURITY.secret;

/** A seller's subscriptions (docs/subscriptions.md). Secret keys only; another seller's subscription is 404. */
export function subscriptionRoutes(deps: Deps) {
  return withSecretKey(deps)
    .get('/developers/subscriptions', ({ caller, query }) => listSubscriptions(deps, caller.developerId, query), {
      query: SubscriptionListQuery,
      response: { 200: SubscriptionList, ...errorsOf(400, 401, 403) },
      detail: {
        tags, security, summary: 'List your subscriptions, newest first',
        description: 'Every subscription of your recurring products, with the customer’s e-mail and the license it renews. Filters combine: productId, status. Cursor pagination: pass the last id as startingAfter while hasMore.',
      },
    })
    .get('/developers/subscriptions/:id', ({ caller, params }) => getSubscription(deps, caller.developerId, params.id), {
      params: SubscriptionParams,
      response: { 200: Subscription, ...errorsOf(400, 401, 403, 404) },
      detail: { tags, security, summary: 'A subscription' },
    })
    .post('/developers/subscriptions/:id/cancel', ({ caller, params }) => cancelSubscription(deps, caller.developerId, params.id), {
      params: SubscriptionParams,
      response: { 200: CanceledSubscription, ...errorsOf(400, 401, 403, 404, 409, 413, 502) },
      detail: {
        tags, security, summary: 'Cancel a subscription at the end of its period',
        description:
          'It is not billed again: cancelAtPeriodEnd becomes true, the license runs to the end of the period paid for plus the product’s grace days, then expires; the subscription becomes canceled when its period ends. ' +
          'A Stripe subscription is updated on your connected account first (502 processor_error if Stripe refuses or cannot be reached: nothing changes here; 409 not_connected without a connected account). ' +
          'In the sandbox it takes effect when your billing clock (POST /sandbox/clock) reaches the period end. ' +
          'Idempotent: a subscription already set to end, or already canceled, is answered as it is (200).',
      },
    });
}
