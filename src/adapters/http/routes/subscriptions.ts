import { t } from 'elysia';
import { cancelSubscription } from '../../../app/subscriptions/cancel-subscription.ts';
import { getSubscription, listSubscriptions, SUBSCRIPTION_LIST_LIMIT } from '../../../app/subscriptions/seller-subscriptions.ts';
import { PROCESSOR_KINDS } from '../../../domain/checkout-session.ts';
import { BILLING_INTERVALS } from '../../../domain/product.ts';
import { SUBSCRIPTION_STATUSES } from '../../../domain/subscription.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withSecretKey } from '../auth.ts';
import { EXAMPLE } from '../examples.ts';
import { Cursor, errorsOf, Id, Input, Limit, Millis, MillisOrNull, Page, ProductFilter, sellerGet, sellerRead } from '../schemas.ts';
import { choiceError, literalUnion, meanings } from '../vocabulary.ts';

// Unknown request fields are ignored, as elsewhere; bounds the use case checks (limit) are refused there, naming the field.
const Status = literalUnion(SUBSCRIPTION_STATUSES, {
  description: meanings(SUBSCRIPTION_STATUSES, {
    active: 'paid through its period',
    past_due: 'a renewal failed (the license runs to its paid end plus grace)',
    canceled: 'ended, final',
  }),
});

const SubscriptionListQuery = Input({
  limit: Limit(SUBSCRIPTION_LIST_LIMIT),
  startingAfter: Cursor('subscription'),
  productId: ProductFilter,
  status: t.Optional(literalUnion(SUBSCRIPTION_STATUSES, { description: 'Only subscriptions in this state.', 'x-error': choiceError('status', SUBSCRIPTION_STATUSES) })),
});

const SubscriptionParams = Input({
  id: Id({ description: 'The subscription id (sub_…).', examples: [EXAMPLE.subscriptionId], 'x-error': 'id must be a subscription id of at most 100 characters.' }),
});

export const SubscriptionView = t.Object({
  id: t.String({ description: 'sub_…: ours, not the processor’s.' }),
  customerId: t.String(),
  customerEmail: t.String({ description: 'The e-mail of the customer who pays for it.' }),
  productId: t.String(),
  licenseId: t.String({ description: 'The one license it renews: each paid period extends it (same id, a fresh key).' }),
  processor: literalUnion(PROCESSOR_KINDS),
  processorSubscriptionId: t.String({ description: 'The processor’s id (sub_… on your Stripe account; sub_sandbox_… in the sandbox).' }),
  status: Status,
  interval: literalUnion(BILLING_INTERVALS),
  currentPeriodEnd: t.Integer({ description: 'End of the period paid for (Unix ms). The license lasts to it plus the product’s graceDays.' }),
  cancelAtPeriodEnd: t.Boolean({ description: 'true: it is not billed again and ends at currentPeriodEnd.' }),
  trialEnd: MillisOrNull('The end of its free trial (Unix ms; null: none). Nothing was charged at checkout: the license is a trial until then, and the first charge comes at this time, converting it in place. A subscription in its trial is active with trialEnd still ahead.'),
  createdAt: Millis,
  canceledAt: MillisOrNull('When it ended (canceled); null while it runs.'),
});

const example = {
  id: EXAMPLE.subscriptionId,
  customerId: EXAMPLE.customerId,
  customerEmail: EXAMPLE.buyerEmail,
  productId: EXAMPLE.productId,
  licenseId: EXAMPLE.licenseId,
  processor: 'stripe',
  processorSubscriptionId: 'sub_1QxT7mL2kZ9vWb4R',
  status: 'active',
  interval: 'month',
  currentPeriodEnd: 1769904000000,
  cancelAtPeriodEnd: false,
  trialEnd: null,
  createdAt: EXAMPLE.time,
  canceledAt: null,
};

const Subscription = t.Object(SubscriptionView.properties, { examples: [example] });

const CanceledSubscription = t.Object(SubscriptionView.properties, { examples: [{ ...example, cancelAtPeriodEnd: true }] });

const SubscriptionList = Page(SubscriptionView, 'subscriptions', { examples: [{ data: [example], hasMore: false }] });

const tags = ['Subscriptions'];
const security = SECURITY.secret;

/** A seller's subscriptions (docs/subscriptions.md). Secret keys only; another seller's subscription is 404. */
export function subscriptionRoutes(deps: Deps) {
  return withSecretKey(deps)
    .get('/developers/subscriptions', ({ caller, query }) => listSubscriptions(deps, caller.developerId, query), sellerRead(SubscriptionListQuery, SubscriptionList, {
      tags, summary: 'List your subscriptions, newest first',
      description: 'Every subscription of your recurring products, with the customer’s e-mail and the license it renews. Filters combine: productId, status. Cursor pagination: pass the last id as startingAfter while hasMore.',
    }))
    .get('/developers/subscriptions/:id', ({ caller, params }) => getSubscription(deps, caller.developerId, params.id), sellerGet(SubscriptionParams, Subscription, { tags, summary: 'A subscription' }))
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
