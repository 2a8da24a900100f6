import { eq, sql } from 'drizzle-orm';
import { orderChanged, orderCompleted } from '../../../domain/events.ts';
import type { Order } from '../../../domain/order.ts';
import { orderRollups } from '../../../domain/stats-rollups.ts';
import type { OrderRepository } from '../../../ports/order-repository.ts';
import { DrizzleOrderRepository, refundStatement } from './order-queries.ts';
import { postgresSqlStore } from '../sql-store.ts';
import { linkPostgresClaim } from '../idempotency/idempotency-claim.ts';
import { addPostgresRollups, changeWithPostgresEvent, emitPostgresEvent, postgresCustomerEmail, rollupCtes } from '../events/postgres-events.ts';
import type { PostgresDb } from '../../postgres/postgres-store.ts';
import { customers, orders } from '../tables.ts';

// Exactly once per source by the unique source_id (INSERT … ON CONFLICT DO NOTHING, then read back:
// the loser of a race sees the winner's committed row, and writes no event); a refund is one conditional UPDATE of the locked row (the refunded total only rises).
export class PostgresOrderRepository extends DrizzleOrderRepository implements OrderRepository {
  constructor(private readonly db: PostgresDb) {
    super(postgresSqlStore(db));
  }

  async record(order: Order): Promise<Order> {
    // The order, its share of the rollups, the e-mail its event carries and order.completed in one statement; none of them when the order was there.
    const insert = this.db.insert(orders).values(order).onConflictDoNothing({ target: orders.sourceId }).getSQL();
    const ctes = sql`
      inserted AS (${insert} RETURNING customer_id),
      ${rollupCtes(orderRollups(null, order), 'inserted')}
      subject AS (SELECT ${customers.email} AS email FROM ${customers} JOIN inserted ON ${customers.id} = inserted.customer_id)`;
    await changeWithPostgresEvent(this.db, { ctes, emailAt: 'order' }, orderCompleted({ ...order, customerEmail: '' }));
    return this.recorded(order.sourceId);
  }

  async refund(id: string, total: number, at: number, expectRefunded?: number): Promise<Order | null> {
    const { set, where } = refundStatement(orders, id, total, at, expectRefunded);
    return this.db.transaction(async (tx) => {
      // The row is locked first, so `before` is the state the update replaces.
      const [before] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
      const [changed] = await tx.update(orders).set(set).where(where).returning();
      if (!before || !changed) return null;
      // A keyed refund (POST …/refund) names the order it recorded, with the record.
      await linkPostgresClaim(tx, 'order', id);
      await addPostgresRollups(tx, orderRollups(before, changed));
      const customerEmail = await postgresCustomerEmail(tx, changed.customerId);
      if (customerEmail !== null) await emitPostgresEvent(tx, orderChanged(before, { ...changed, customerEmail }));
      return changed;
    });
  }
}
