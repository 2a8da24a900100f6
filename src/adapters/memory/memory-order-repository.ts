import type { Order } from '../../domain/order.ts';
import type { OrderListQuery, OrderPage, OrderRepository } from '../../ports/order-repository.ts';
import { copy, copyOrNull, type MemoryTables, requireRow, requireUnique } from './memory-tables.ts';

type Position = Pick<Order, 'createdAt' | 'id'>;

/** Oldest first; ties by id, as ORDER BY created_at, id (ids byte-wise) gives. */
const oldestFirst = (a: Position, b: Position): number => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Orders in memory, held to the same contract as SQL: one per source, foreign keys checked. */
export class MemoryOrderRepository implements OrderRepository {
  // Kept here rather than in MemoryTables: nothing else in the memory store reads orders.
  private readonly orders = new Map<string, Order>();

  constructor(private readonly tables: MemoryTables) {}

  async record(order: Order): Promise<Order> {
    const existing = [...this.orders.values()].find((o) => o.sourceId === order.sourceId);
    if (existing) return copy(existing);
    requireUnique(this.orders.has(order.id), 'orders.id');
    requireRow(this.tables.developers, order.developerId, 'orders.developer_id');
    requireRow(this.tables.customers, order.customerId, 'orders.customer_id');
    requireRow(this.tables.products, order.productId, 'orders.product_id');
    this.orders.set(order.id, copy(order));
    return copy(order);
  }

  async markRefundedByPayment(paymentId: string, at: number): Promise<number> {
    let changed = 0;
    for (const order of this.orders.values()) {
      if (order.paymentId !== paymentId || order.status !== 'paid') continue;
      order.status = 'refunded';
      order.refundedAt = at;
      changed++;
    }
    return changed;
  }

  async findById(id: string): Promise<Order | null> {
    return copyOrNull(this.orders.get(id));
  }

  async listByDeveloper(developerId: string, query: OrderListQuery): Promise<OrderPage> {
    const emailOf = (order: Order) => this.tables.customers.get(order.customerId)?.email ?? '';
    const { after } = query;
    const rows = [...this.orders.values()]
      .filter((o) => o.developerId === developerId)
      .filter((o) => query.productId === undefined || o.productId === query.productId)
      .filter((o) => query.status === undefined || o.status === query.status)
      .filter((o) => query.createdFrom === undefined || o.createdAt >= query.createdFrom)
      .filter((o) => query.createdBefore === undefined || o.createdAt < query.createdBefore)
      .filter((o) => query.customerEmail === undefined || emailOf(o) === query.customerEmail)
      .filter((o) => !after || oldestFirst(o, after) < 0)
      .sort((a, b) => oldestFirst(b, a))
      .slice(0, query.limit + 1);
    const data = rows.slice(0, query.limit).map((o) => ({ ...copy(o), customerEmail: emailOf(o) }));
    return { data, hasMore: rows.length > query.limit };
  }
}
