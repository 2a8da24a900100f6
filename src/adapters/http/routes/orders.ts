import { t } from 'elysia';
import { listOrders, ORDER_LIST_LIMIT } from '../../../app/orders/list-orders.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withSecretKey } from '../auth.ts';
import { PROCESSOR_KINDS } from '../../../domain/checkout-session.ts';
import { ORDER_SOURCES, ORDER_STATUSES } from '../../../domain/order.ts';
import { EXAMPLE } from '../examples.ts';
import { CreatedAfter, CreatedBefore, Cursor, ExactEmail, errorsOf, Input, Limit, Millis, MillisOrNull, Page, ProductFilter } from '../schemas.ts';
import { literalUnion } from '../vocabulary.ts';

const OrderListQuery = Input({
  limit: Limit(ORDER_LIST_LIMIT),
  startingAfter: Cursor('order'),
  productId: ProductFilter,
  email: ExactEmail,
  status: t.Optional(literalUnion(ORDER_STATUSES, { error: 'status must be paid or refunded.' })),
  createdAfter: CreatedAfter,
  createdBefore: CreatedBefore,
});

const Nullable = (description: string) => t.Union([t.String(), t.Null()], { description });

const Order = t.Object({
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
  status: literalUnion(ORDER_STATUSES),
  createdAt: Millis,
  refundedAt: MillisOrNull(),
});

const OrderList = Page(Order, 'orders', {
  examples: [
    {
      data: [
        {
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
          refundedAt: null,
        },
      ],
      hasMore: false,
    },
  ],
});

/** GET /developers/orders: money in (completed checkouts, terminal purchases, renewals), newest first. */
export function orderListRoutes(deps: Deps) {
  return withSecretKey(deps).get('/developers/orders', ({ caller, query }) => listOrders(deps, caller.developerId, query), {
    query: OrderListQuery,
    response: { 200: OrderList, ...errorsOf(400, 401, 403) },
    detail: {
      tags: ['Orders'],
      summary: 'List your orders, newest first',
      description:
        'Every order of the caller: amount, currency, the processor’s ids and the license it paid for. Filters combine: productId, email (exact, case-insensitive), status (paid or refunded), and [createdAfter, createdBefore). Cursor pagination: pass the last id as startingAfter while hasMore.',
      security: SECURITY.secret,
    },
  });
}
