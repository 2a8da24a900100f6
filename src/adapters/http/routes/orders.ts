import { t } from 'elysia';
import { listOrders, ORDER_LIST_LIMIT } from '../../../app/orders/list-orders.ts';
import { orderAsItStands, refundOrder } from '../../../app/orders/refund-order.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withSecretKey } from '../auth.ts';
import { PROCESSOR_KINDS } from '../../../domain/checkout-session.ts';
import { ORDER_SOURCES, ORDER_STATUSES } from '../../../domain/order.ts';
import { EXAMPLE } from '../examples.ts';
import { CreatedAfter, CreatedBefore, Cursor, ExactEmail, errorsOf, Id, Input, Int, Limit, Millis, MillisOrNull, Page, ProductFilter, sellerRead } from '../schemas.ts';
import { choiceError, literalUnion } from '../vocabulary.ts';
import { idempotent, underKey } from '../idempotency.ts';

const OrderListQuery = Input({
  limit: Limit(ORDER_LIST_LIMIT),
  startingAfter: Cursor('order'),
  productId: ProductFilter,
  email: ExactEmail,
  status: t.Optional(literalUnion(ORDER_STATUSES, { 'x-error': choiceError('status', ORDER_STATUSES) })),
  createdAfter: CreatedAfter,
  createdBefore: CreatedBefore,
});

const Nullable = (description: string) => t.Union([t.String(), t.Null()], { description });

export const Order = t.Object({
  id: t.String({ description: 'ord_…' }),
  customerId: t.String(),
  customerEmail: t.String(),
  productId: t.String(),
  licenseId: t.String({ description: 'The license it paid for.' }),
  source: literalUnion(ORDER_SOURCES),
  sourceId: t.String({ description: 'The checkout session, terminal purchase or invoice it records.' }),
  amount: t.Integer({ description: 'In the currency’s minor unit.' }),
  currency: t.String(),
  processor: literalUnion(PROCESSOR_KINDS),
  paymentId: Nullable('The processor’s payment (PaymentIntent) id.'),
  processorReference: Nullable('The processor’s checkout session or invoice id.'),
  status: literalUnion(ORDER_STATUSES, { description: 'refunded once all of amount went back (refunds or a lost dispute); a partial refund leaves it paid.' }),
  createdAt: Millis,
  amountRefunded: t.Integer({ description: 'How much of amount went back so far, in the currency’s minor unit.' }),
  refundedAt: MillisOrNull('When money last went back; null = never.'),
  periodStart: MillisOrNull('A renewal: start of the subscription period its invoice paid for; null for other orders.'),
  periodEnd: MillisOrNull('A renewal: end of the period it paid for; null for other orders.'),
  receiptUrl: Nullable('Stripe’s receipt of the payment (the charge’s receipt_url, or a renewal’s or subscription checkout’s hosted invoice), as the buyer reads it; null for sandbox orders (their buyer reads this service’s receipt page) and where Stripe gave none.'),
});

export const orderExample = {
  id: EXAMPLE.orderId,
  customerId: EXAMPLE.customerId,
  customerEmail: EXAMPLE.buyerEmail,
  productId: EXAMPLE.productId,
  licenseId: EXAMPLE.licenseId,
  source: 'checkout',
  sourceId: EXAMPLE.sessionId,
  amount: 4900,
  currency: 'usd',
  processor: 'stripe',
  paymentId: 'pi_3QxT7mL2kZ9vWb4R',
  processorReference: 'cs_test_a1B2c3D4e5F6',
  status: 'paid',
  createdAt: EXAMPLE.time,
  amountRefunded: 0,
  refundedAt: null,
  periodStart: null,
  periodEnd: null,
  receiptUrl: 'https://pay.stripe.com/receipts/payment/CAcaFwoV',
};

const OrderParams = Input({
  id: Id({ description: 'The order id (ord_…).', examples: [EXAMPLE.orderId], 'x-error': 'id must be an order id of at most 100 characters.' }),
});

const RefundBody = t.Optional(
  Input({
    amount: t.Optional(
      Int({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'How much to give back, in the currency’s minor unit; at most what is left to refund. Absent: all that is left.',
        'x-error': 'amount must be a positive whole number of the currency’s minor unit.',
      }),
    ),
  }, { examples: [{ amount: 400 }] }),
);

const RefundedOrder = t.Object(Order.properties, { examples: [{ ...orderExample, status: 'refunded', amountRefunded: 4900, refundedAt: EXAMPLE.time + 86_400_000 }] });

const OrderList = Page(Order, 'orders', { examples: [{ data: [orderExample], hasMore: false }] });

/**
 * GET /developers/orders: money in (completed checkouts, terminal purchases, renewals), newest
 * first; POST /developers/orders/:id/refund: money back (docs/subscriptions.md, Refunds).
 */
export function orderListRoutes(deps: Deps) {
  return withSecretKey(deps).get('/developers/orders', ({ caller, query }) => listOrders(deps, caller.developerId, query), sellerRead(OrderListQuery, OrderList, {
    tags: ['Orders'],
    summary: 'List your orders, newest first',
    description:
      'Every order of the caller: amount, currency, the processor’s ids and the license it paid for. Filters combine: productId, email (exact, case-insensitive), status (paid or refunded), and [createdAfter, createdBefore). Cursor pagination: pass the last id as startingAfter while hasMore.',
  }))
  .post('/developers/orders/:id/refund', ({ caller, params, body, request }) => underKey(request, () => refundOrder(deps, caller.developerId, params.id, body?.amount)), {
    params: OrderParams,
    body: RefundBody,
    // The refund's record names the order: a retry after a crash answers the order as it stands.
    ...idempotent(deps, { kind: 'order', status: 200, answer: (id, { caller }) => (caller ? orderAsItStands(deps, caller.developerId, id) : Promise.resolve(null)) }),
    response: { 200: RefundedOrder, ...errorsOf(400, 401, 403, 404, 409, 413, 502) },
    detail: {
      tags: ['Orders'],
      summary: 'Refund an order, in full or in part',
      description:
        'Gives money back to the buyer: all that is left of the order (no body, or no amount), or amount (a positive whole number of the currency’s minor unit, at most amount − amountRefunded; more is 400 invalid_request). ' +
        'A Stripe order is refunded on your connected account first (502 processor_error if Stripe cannot be reached, 409 conflict if Stripe refuses, 409 not_connected without a connected account: nothing changes here); a sandbox order at once. ' +
        'Then, as for a refund made in Stripe’s dashboard: amountRefunded rises, order.refunded is sent; once all of it went back the order is refunded and what it paid for is taken back: a checkout’s or purchase’s license is revoked (a subscription’s first payment included), a renewal’s license is cut back to the end of the latest period still paid for plus grace days (license.updated). A partial refund takes nothing back. ' +
        'Idempotent: concurrent or repeated calls against the same state of the order refund once (Stripe gets one idempotency key per order and amount already refunded; a concurrent call with another amount is 409 conflict), and an order already refunded in full is answered as it is (200). Another seller’s order is 404.',
      security: SECURITY.secret,
    },
  });
}
