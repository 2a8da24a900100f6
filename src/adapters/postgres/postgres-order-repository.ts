import { and, eq, sql } from 'drizzle-orm';
import { orderChanged, orderCompleted } from '../../domain/events.ts';
import type { Order } from '../../domain/order.ts';
import type { OrderRepository } from '../../ports/order-repository.ts';
import { DrizzleOrderRepository } from '../drizzle/drizzle-order-repository.ts';
import { postgresSqlStore } from '../drizzle/sql-store.ts';
import { changeWithPostgresEvent, emitPostgresEvent, postgresCustomerEmail } from './postgres-events.ts';
import type { PostgresDb } from './postgres-store.ts';
import { customers, orders } from './schema.ts';

// Exactly once per source by the unique source_id (INSERT … ON CONFLICT DO NOTHING, then read back:
// the loser of a race sees the winner's committed row, and writes no event); refunds are one conditional UPDATE.
export class PostgresOrderRepository extends DrizzleOrderRepository implements OrderRepository {
  constructor(private readonly db: PostgresDb) {
    super(postgresSqlStore(db));
  }

  async record(order: Order): Promise<Order> {
    // The order, the e-mail its event carries and order.completed in one statement; no event when the order was there.
    const insert = this.db.insert(orders).values(order).onConflictDoNothing({ target: orders.sourceId }).getSQL();
    const ctes = sql`
      inserted AS (${insert} RETURNING customer_id),
      subject AS (SELECT ${customers.email} AS email FROM ${customers} JOIN inserted ON ${customers.id} = inserted.customer_id)`;
    await changeWithPostgresEvent(this.db, { ctes, emailAt: 'order' }, orderCompleted({ ...order, customerEmail: '' }));
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
}
