import type { Order, OrderStatus } from '../../domain/order.ts';
import type { Deps } from '../../ports/deps.ts';
import type { OrderListQuery } from '../../ports/order-repository.ts';
import { emailFilter, pageLimit, resumeAfter, timeBound } from '../licenses/list-licenses.ts';

export const ORDER_LIST_LIMIT = { default: 20, max: 100 };

export interface ListOrdersInput {
  limit?: number;
  startingAfter?: string;
  productId?: string;
  /** Exact (case-insensitive) e-mail of the customer who paid. */
  email?: string;
  status?: OrderStatus;
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
): Promise<{ data: OrderView[]; hasMore: boolean }> {
  const query: OrderListQuery = { limit: pageLimit(input.limit, ORDER_LIST_LIMIT) };
  if (input.startingAfter !== undefined) {
    const cursor = await deps.orders.findById(input.startingAfter);
    query.after = resumeAfter(cursor?.developerId === developerId ? cursor : null, 'orders');
  }
  if (input.productId !== undefined) query.productId = input.productId;
  if (input.email !== undefined) query.customerEmail = emailFilter(input.email);
  if (input.status !== undefined) query.status = input.status;
  const from = timeBound(input.createdAfter, 'createdAfter');
  const before = timeBound(input.createdBefore, 'createdBefore');
  if (from !== undefined) query.createdFrom = from;
  if (before !== undefined) query.createdBefore = before;
  const page = await deps.orders.listByDeveloper(developerId, query);
  return { data: page.data.map(({ developerId: _d, ...order }) => order), hasMore: page.hasMore };
}
