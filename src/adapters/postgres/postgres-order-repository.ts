import { and, eq } from 'drizzle-orm';
import { orderChanged, orderCompleted } from '../../domain/events.ts';
import type { Order } from '../../domain/order.ts';
import type { OrderRepository } from '../../ports/order-repository.ts';
import { DrizzleOrderRepository } from '../drizzle/drizzle-order-repository.ts';
import { postgresSqlStore } from '../drizzle/sql-store.ts';
import { emitPostgresEvent, postgresCustomerEmail } from './postgres-events.ts';
import type { PostgresDb } from './postgres-store.ts';
import { orders } from './schema.ts';

// Exactly once per source by the unique source_id (INSERT … ON CONFLICT DO NOTHING, then read back:
// the loser of a race sees the winner's committed row); refunds are one conditional UPDATE.
export class PostgresOrderRepository extends DrizzleOrderRepository implements OrderRepository {
  constructor(private readonly db: PostgresDb) {
    super(postgresSqlStore(db));
  }

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
}
