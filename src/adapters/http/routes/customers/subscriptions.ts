import { BUYER_CHANGES_PER_HOUR, CARD_PAGES_PER_HOUR, cardChangeUrl, changeRenewal, listCustomerSubscriptions } from '../../../../app/subscriptions/customer-subscriptions.ts';
import { listCustomerOrders } from '../../../../app/customers/customer-orders.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { SECURITY, withCustomer } from '../../auth.ts';
import { customerRead, errorsOf } from '../../schemas.ts';
import { CardChange, CardChangeBody, CustomerOrderList, CustomerSubscription, CustomerSubscriptionList, CustomerSubscriptionParams } from './schemas.ts';

const tags = ['Customers'];

const CHANGE_RULES =
  `The seller’s processor is told first (Stripe: the subscription’s cancel_at_period_end on the seller’s account; the sandbox keeps it here), then it is recorded. Of concurrent cancels and resumes of one subscription, one makes each change and only it reaches the processor: one asking for the state it is already in gets it as it stands (200, the processor not called), one meeting another change still in flight gets 409 conflict (try again). Another customer’s subscription, or an unknown id: 404 not_found. 502 processor_error when the processor refused or could not be reached (nothing recorded); 409 not_connected when the seller’s account is no longer connected. At most ${BUYER_CHANGES_PER_HOUR} changes that reach the processor per subscription per hour (repeats of the state it is in are not counted); past it 429 rate_limited with Retry-After.`;

/** Cancel and resume: the same answers, the same rules. */
const renewalRoute = (summary: string, what: string) => ({
  params: CustomerSubscriptionParams,
  response: { 200: CustomerSubscription, ...errorsOf(400, 401, 404, 409, 413, 429, 502) },
  detail: { tags, summary, description: `${what} ${CHANGE_RULES}`, security: SECURITY.customer },
});

/** The buyer's subscriptions and orders (docs/customers.md, "Subscriptions and receipts"). */
export function customerSubscriptionRoutes(deps: Deps) {
  return withCustomer(deps)
    .get('/customer/subscriptions', async ({ customer }) => ({ data: await listCustomerSubscriptions(deps, customer.customerId) }), customerRead(CustomerSubscriptionList, {
      tags,
      summary: 'The customer’s subscriptions',
      description:
        'Every subscription of the signed-in customer, across sellers, newest first (at most 100): the seller and product, its status, interval, when it charges next and how much (nextChargeAt: the end of a free trial while one runs, else the end of the period; null once canceled or set to end) and whether it is set to end.',
    }))
    .post('/customer/subscriptions/:id/cancel', ({ customer, params }) => changeRenewal(deps, customer.customerId, params.id, true), renewalRoute(
      'Cancel a subscription at the end of its period',
      'It is not charged again: it runs to currentPeriodEnd, then ends, and its license with it (plus the product’s grace days). Canceled during a free trial, nothing is ever charged and it ends with the trial.',
    ))
    .post('/customer/subscriptions/:id/resume', ({ customer, params }) => changeRenewal(deps, customer.customerId, params.id, false), renewalRoute(
      'Resume a subscription set to end',
      'Undoes a cancel before the period ends: it renews again at currentPeriodEnd. An ended subscription (canceled, or its period over): 409 conflict; buy the product again.',
    ))
    .get('/customer/orders', async ({ customer }) => ({ data: await listCustomerOrders(deps, customer.customerId) }), customerRead(CustomerOrderList, {
      tags,
      summary: 'The customer’s orders, with their receipts',
      description:
        'Every payment of the signed-in customer, across sellers, newest first (at most 100): checkouts, terminal purchases and renewals, with what went back and receiptUrl: Stripe’s receipt of the charge or its hosted invoice, or, for a sandbox order, this service’s receipt page GET /v1/account/receipts/{orderId}?t=… (the t is a key made for that order: whoever holds the link can read the receipt, as with Stripe’s own receipt links).',
    }))
    .post('/customer/card', ({ customer, body }) => cardChangeUrl(deps, customer.customerId, body.subscriptionId, `${deps.settings.apiBaseUrl}/account`), {
      body: CardChangeBody,
      response: { 200: CardChange, ...errorsOf(400, 401, 404, 409, 413, 429, 502) },
      detail: {
        tags,
        summary: 'Change the card a subscription renews with',
        description:
          `Answers the page to open: for a Stripe subscription, a billing-portal session of Stripe’s for the subscription’s customer on the seller’s connected account (it comes back to GET /v1/account); for a sandbox subscription, the sandbox’s card form GET /v1/account/card/{id} (its link works 30 minutes, for this customer and subscription only; it takes the sandbox checkout’s test card numbers and saves the card with the seller). The card is per seller: the body names the subscription. An ended subscription: 409 conflict; another customer’s: 404 not_found; 502 processor_error when Stripe could not make the session. At most ${CARD_PAGES_PER_HOUR} per subscription per hour, then 429 rate_limited with Retry-After.`,
        security: SECURITY.customer,
      },
    });
}
