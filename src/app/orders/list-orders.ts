import type { Order, OrderStatus } from '../../domain/order.ts';
import type { Deps } from '../../ports/deps.ts';
import type { OrderListQuery } from '../../ports/order-repository.ts';
import type { Page } from '../../ports/page.ts';
import { emailFilter, newestFirstQuery, timeBound, type NewestFirstInput } from '../licenses/list-licenses.ts';

export const ORDER_LIST_LIMIT = { default: 20, max: 100 };

export interface ListOrdersInput extends NewestFirstInput<OrderStatus> {
  /** Exact (case-insensitive) e-mail of the customer who paid. */
  email?: string;
  /** Created at or after (inclusive). */
  createdAfter?: number;
  /** Created before (exclusive). */
  createdBefore?: number;
}

export type OrderView = Omit<Order, 'developerId'> & { customerEmail: string };

/** A seller's orders (completed checkouts, terminal purchases, renewals), newest first. */
export async function listOrders(
  deps: Pick<Deps, 'orders'>,
  developerId: string,
  input: ListOrdersInput,
): Promise<Page<OrderView>> {
  const query: OrderListQuery = await newestFirstQuery(input, ORDER_LIST_LIMIT, 'orders', async (id) => {
    const cursor = await deps.orders.findById(id);
    return cursor?.developerId === developerId ? cursor : null;
  });
  if (input.email !== undefined) query.customerEmail = emailFilter(input.email);
  const from = timeBound(input.createdAfter, 'createdAfter');
  const before = timeBound(input.createdBefore, 'createdBefore');
  if (from !== undefined) query.createdFrom = from;
  if (before !== undefined) query.createdBefore = before;
  const page = await deps.orders.listByDeveloper(developerId, query);
  return { data: page.data.map(({ developerId: _d, ...order }) => order), hasMore: page.hasMore };
}
