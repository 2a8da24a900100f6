import { and, desc, eq, gte, lt, lte, or, sql } from 'drizzle-orm';
import { orderChanged, orderCompleted } from '../../domain/events.ts';
import type { Order } from '../../domain/order.ts';
import type { OrderListQuery, OrderPage, OrderRepository } from '../../ports/order-repository.ts';
import { emitPostgresEvent, postgresCustomerEmail } from './postgres-events.ts';
import type { PostgresDb } from './postgres-store.ts';
import { customers, orders } from './schema.ts';

// Exactly once per source by the unique source_id (INSERT … ON CONFLICT DO NOTHING, then read back:
// the loser of a race sees the winner's committed row); refunds are one conditional UPDATE.
export class PostgresOrderRepository implements OrderRepository {
  constructor(private readonly db: PostgresDb) {}

  async record(order: Order): Promise<Order> {
    await this.db.transaction(async (tx) => {
      const [inserted] = await tx.insert(orders).values(order).onConflictDoNothing({ target: orders.sourceId }).returning();
      const customerEmail = inserted ? await postgresCustomerEmail(tx, inserted.customerId) : null;
      if (inserted && customerEmail !== null) await emitPostgresEvent(tx, orderCompleted({ ...inserted, customerEmail }));
    });
    const [stored] = await this.db.select().from(orders).where(eq(orders.sourceId, order.sourceId));
    if (!stored) throw new Error('an order recorded by its source could not be read back');
    return stored;
  }

  async markRefundedByPayment(paymentId: string, at: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      const changed = await tx
        .update(orders)
        .set({ status: 'refunded', refundedAt: at })
        .where(and(eq(orders.paymentId, paymentId), eq(orders.status, 'paid')))
        .returning();
      for (const order of changed) {
        const customerEmail = await postgresCustomerEmail(tx, order.customerId);
        if (customerEmail !== null) await emitPostgresEvent(tx, orderChanged({ status: 'paid' }, { ...order, customerEmail }));
      }
      return changed.length;
    });
  }

  async findById(id: string): Promise<Order | null> {
    const [row] = await this.db.select().from(orders).where(eq(orders.id, id));
    return row ?? null;
  }

  async listByDeveloper(developerId: string, query: OrderListQuery): Promise<OrderPage> {
    let customerId: string | undefined;
    if (query.customerEmail !== undefined) {
      const [customer] = await this.db.select({ id: customers.id }).from(customers).where(eq(customers.email, query.customerEmail));
      if (!customer) return { data: [], hasMore: false };
      customerId = customer.id;
    }
    const rows = await postgresOrderListQuery(this.db, developerId, query, customerId);
    const data = rows.slice(0, query.limit).map((row) => ({ ...row.order, customerEmail: row.customerEmail }));
    return { data, hasMore: rows.length > query.limit };
  }
}

/**
 * A seller's orders, newest first: (developer_id, created_at, id), or with a product
 * (developer_id, product_id, created_at, id), or with a customer (developer_id, customer_id, created_at, id).
 */
export function postgresOrderListQuery(db: PostgresDb, developerId: string, query: OrderListQuery, customerId: string | undefined) {
  const { after } = query;
  // One inclusive upper bound (the tighter of createdBefore and the cursor): the index range starts at the cursor.
  const before = query.createdBefore === undefined ? undefined : query.createdBefore - 1;
  const upper = after ? Math.min(after.createdAt, before ?? Infinity) : before;
  // Ids compare byte-wise (COLLATE "C"), as in SQLite, so pages agree everywhere.
  const id = sql`${orders.id} COLLATE "C"`;
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
        after ? or(lt(orders.createdAt, after.createdAt), sql`${id} < ${after.id}`) : undefined,
      ),
    )
    .orderBy(desc(orders.createdAt), desc(id))
    .limit(query.limit + 1);
}
