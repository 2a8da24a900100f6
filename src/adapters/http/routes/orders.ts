import { listOrders } from '../../../app/orders/list-orders.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withSecretKey } from '../auth.ts';
import { OrderList, OrderListQuery } from '../list-schemas.ts';
import { errorsOf } from '../schemas.ts';

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
