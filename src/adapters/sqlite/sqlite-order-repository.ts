import { and, desc, eq, gte, lt, lte, or } from 'drizzle-orm';
import { orderChanged, orderCompleted } from '../../domain/events.ts';
import type { Order } from '../../domain/order.ts';
import type { OrderListQuery, OrderPage, OrderRepository } from '../../ports/order-repository.ts';
import { customers, orders } from './schema.ts';
import { emitSqliteEvent, sqliteCustomerEmail } from './sqlite-events.ts';
import type { SqliteDb } from './sqlite-store.ts';

// Exactly once per source by the unique source_id (INSERT … ON CONFLICT DO NOTHING, then read back);
// refunds are one conditional UPDATE, so a replayed refund changes nothing.
export class SqliteOrderRepository implements OrderRepository {
  constructor(private readonly db: SqliteDb) {}

  async record(order: Order): Promise<Order> {
    this.db.transaction((tx) => {
      const [inserted] = tx.insert(orders).values(order).onConflictDoNothing({ target: orders.sourceId }).returning().all();
      const customerEmail = inserted ? sqliteCustomerEmail(tx, inserted.customerId) : null;
      if (inserted && customerEmail !== null) emitSqliteEvent(tx, orderCompleted({ ...inserted, customerEmail }));
    });
    const stored = this.db.select().from(orders).where(eq(orders.sourceId, order.sourceId)).get();
    if (!stored) throw new Error('an order recorded by its source could not be read back');
    return stored;
  }

  async markRefundedByPayment(paymentId: string, at: number): Promise<number> {
    return this.db.transaction((tx) => {
      const changed = tx
        .update(orders)
        .set({ status: 'refunded', refundedAt: at })
        .where(and(eq(orders.paymentId, paymentId), eq(orders.status, 'paid')))
        .returning()
        .all();
      for (const order of changed) {
        const customerEmail = sqliteCustomerEmail(tx, order.customerId);
        if (customerEmail !== null) emitSqliteEvent(tx, orderChanged({ status: 'paid' }, { ...order, customerEmail }));
      }
      return changed.length;
    });
  }

  async findById(id: string): Promise<Order | null> {
    return this.db.select().from(orders).where(eq(orders.id, id)).get() ?? null;
  }

  async listByDeveloper(developerId: string, query: OrderListQuery): Promise<OrderPage> {
    let customerId: string | undefined;
    if (query.customerEmail !== undefined) {
      customerId = this.db.select({ id: customers.id }).from(customers).where(eq(customers.email, query.customerEmail)).get()?.id;
      if (customerId === undefined) return { data: [], hasMore: false };
    }
    const rows = sqliteOrderListQuery(this.db, developerId, query, customerId).all();
    const data = rows.slice(0, query.limit).map((row) => ({ ...row.order, customerEmail: row.customerEmail }));
    return { data, hasMore: rows.length > query.limit };
  }
}

/**
 * A seller's orders, newest first: (developer_id, created_at, id), or with a product
 * (developer_id, product_id, created_at, id), or with a customer (developer_id, customer_id, created_at, id).
 */
export function sqliteOrderListQuery(db: SqliteDb, developerId: string, query: OrderListQuery, customerId: string | undefined) {
  const { after } = query;
  // One inclusive upper bound (the tighter of createdBefore and the cursor): the index range starts at the cursor.
  const before = query.createdBefore === undefined ? undefined : query.createdBefore - 1;
  const upper = after ? Math.min(after.createdAt, before ?? Infinity) : before;
  return db
    .select({ order: orders, customerEmail: customers.email })
    .from(orders)
    .innerJoin(customers, eq(customers.id, orders.customerId))
    .where(
      and(
        eq(orders.developerId, developerId),
        query.productId === undefined ? undefined : eq(orders.productId, query.productId),
        query.status === undefined ? undefined : eq(orders.status, query.status),
        query.createdFrom === undefined ? undefined : gte(orders.createdAt, query.createdFrom),
        upper === undefined ? undefined : lte(orders.createdAt, upper),
        // A customer's orders with this seller: (developer_id, customer_id, created_at, id).
        customerId === undefined ? undefined : eq(orders.customerId, customerId),
        // Within the cursor's millisecond the id decides (created_at <= the cursor's is already the range).
        after ? or(lt(orders.createdAt, after.createdAt), lt(orders.id, after.id)) : undefined,
      ),
    )
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(query.limit + 1)
;
}
