import { and, asc, desc, eq, gte, lte, or, lt, sql, type Column } from 'drizzle-orm';
import type { Order, OrderStatus } from '../../../domain/order.ts';
import type { PaymentReversal } from '../../../ports/payment-processor.ts';
import type { OrderListQuery, OrderPage, OrderRepository } from '../../../ports/order-repository.ts';
import { oneOrNull, type SqlStore } from '../sql-store.ts';

/**
 * What the two order repositories share: the reads. Each dialect's repository adds the writes,
 * which announce their orders in its own transactions.
 */
export abstract class DrizzleOrderRepository implements Omit<OrderRepository, 'record' | 'refund'> {
  constructor(protected readonly store: SqlStore) {}

  async recordReversal(reversal: PaymentReversal, at: number): Promise<void> {
    const { db, tables: { paymentReversals: r }, dialect } = this.store;
    const all = reversal.refunded === 'all';
    const refunded = reversal.refunded === 'all' ? 0 : reversal.refunded;
    await db
      .insert(r)
      .values({ paymentId: reversal.paymentId, accountId: reversal.accountId ?? '', invoiceId: reversal.invoiceId, refunded, allRefunded: all, recordedAt: at })
      .onConflictDoUpdate({
        target: [r.paymentId, r.accountId],
        set: {
          refunded: dialect.greatest(r.refunded, sql`excluded.refunded`),
          allRefunded: dialect.greatest(r.allRefunded, sql`excluded.all_refunded`),
          invoiceId: sql`coalesce(${r.invoiceId}, excluded.invoice_id)`,
        },
      });
  }

  async reversalsOf(paymentId: string | null, invoiceId: string | null): Promise<PaymentReversal[]> {
    const { db, tables: { paymentReversals: r } } = this.store;
    const which = [paymentId === null ? null : eq(r.paymentId, paymentId), invoiceId === null ? null : eq(r.invoiceId, invoiceId)].filter((c) => c !== null);
    if (which.length === 0) return [];
    const rows = await db.select().from(r).where(or(...which));
    return rows.map((row) => ({ accountId: row.accountId || null, paymentId: row.paymentId, invoiceId: row.invoiceId, refunded: row.allRefunded ? 'all' : row.refunded }));
  }

  /** The order recorded for `sourceId`, read back after a `record` that may have found it there already. */
  protected async recorded(sourceId: string): Promise<Order> {
    const stored = await this.findBySource(sourceId);
    if (!stored) throw new Error('an order recorded by its source could not be read back');
    return stored;
  }

  async findById(id: string): Promise<Order | null> {
    const { orders } = this.store.tables;
    return oneOrNull(this.store.db.select().from(orders).where(eq(orders.id, id)));
  }

  async findByPayment(paymentId: string): Promise<Order[]> {
    return this.oldestFirst('paymentId', paymentId);
  }

  async findBySource(sourceId: string): Promise<Order | null> {
    const { orders } = this.store.tables;
    return oneOrNull(this.store.db.select().from(orders).where(eq(orders.sourceId, sourceId)));
  }

  async findByLicense(licenseId: string): Promise<Order[]> {
    return this.oldestFirst('licenseId', licenseId);
  }

  /** The orders whose `column` is `value`, oldest first. */
  private oldestFirst(column: 'paymentId' | 'licenseId', value: string): Promise<Order[]> {
    const { orders } = this.store.tables;
    return this.store.db.select().from(orders).where(eq(orders[column], value)).orderBy(asc(orders.createdAt), asc(orders.id));
  }

  async listByCustomer(customerId: string, limit: number): Promise<Order[]> {
    const { db, tables: { orders }, dialect } = this.store;
    return db.select().from(orders).where(eq(orders.customerId, customerId)).orderBy(desc(orders.createdAt), desc(dialect.byteOrder(orders.id))).limit(limit);
  }

  async listByDeveloper(developerId: string, query: OrderListQuery): Promise<OrderPage> {
    let customerId: string | undefined;
    if (query.customerEmail !== undefined) {
      const { customers } = this.store.tables;
      const customer = await oneOrNull(this.store.db.select({ id: customers.id }).from(customers).where(eq(customers.email, query.customerEmail)));
      if (!customer) return { data: [], hasMore: false };
      customerId = customer.id;
    }
    const rows = await orderListQuery(this.store, developerId, query, customerId);
    const data = rows.slice(0, query.limit).map((row) => ({ ...row.order, customerEmail: row.customerEmail }));
    return { data, hasMore: rows.length > query.limit };
  }
}

/**
 * A seller's orders, newest first: (developer_id, created_at, id), or with a product
 * (developer_id, product_id, created_at, id), or with a customer (developer_id, customer_id, created_at, id).
 */
export function orderListQuery(store: SqlStore, developerId: string, query: OrderListQuery, customerId: string | undefined) {
  const { orders, customers } = store.tables;
  const { after } = query;
  // Ids compare byte-wise, as the indexes are built, so pages agree in both dialects.
  const id = store.dialect.byteOrder(orders.id);
  // One inclusive upper bound (the tighter of createdBefore and the cursor): the index range starts at the cursor.
  const before = query.createdBefore === undefined ? undefined : query.createdBefore - 1;
  const upper = after ? Math.min(after.createdAt, before ?? Infinity) : before;
  return store.db
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

/** The order columns a refund statement reads, in either schema. */
interface RefundColumns {
  id: Column;
  amount: Column;
  amountRefunded: Column;
}

/**
 * The one conditional statement of a refund, in both dialects: the refunded total rises to `total`
 * (never past the amount, never down), the status follows it.
 */
export function refundStatement(orders: RefundColumns, id: string, total: number, at: number, expectRefunded?: number) {
  const capped = sql<number>`CASE WHEN ${total} < ${orders.amount} THEN ${total} ELSE ${orders.amount} END`;
  return {
    set: { amountRefunded: capped, status: sql<OrderStatus>`CASE WHEN ${total} >= ${orders.amount} THEN 'refunded' ELSE 'paid' END`, refundedAt: at },
    where: and(eq(orders.id, id), lt(orders.amountRefunded, capped), expectRefunded === undefined ? undefined : eq(orders.amountRefunded, expectRefunded)),
  };
}
