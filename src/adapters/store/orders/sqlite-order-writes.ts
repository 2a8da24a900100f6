import { eq } from 'drizzle-orm';
import { orderChanged, orderCompleted } from '../../../domain/events.ts';
import type { Order } from '../../../domain/order.ts';
import { orderRollups } from '../../../domain/stats-rollups.ts';
import type { OrderRepository } from '../../../ports/order-repository.ts';
import { DrizzleOrderRepository, refundStatement } from './order-queries.ts';
import { sqliteSqlStore } from '../sql-store.ts';
import { linkSqliteClaim } from '../idempotency/idempotency-claim.ts';
import { orders } from '../../sqlite/schema.ts';
import { addSqliteRollups, emitSqliteEvent, sqliteCustomerEmail } from '../events/sqlite-events.ts';
import type { SqliteDb } from '../../sqlite/sqlite-store.ts';

// Exactly once per source by the unique source_id (INSERT … ON CONFLICT DO NOTHING, then read back);
// a refund is one conditional UPDATE (the refunded total only rises), so a replayed refund changes nothing.
export class SqliteOrderRepository extends DrizzleOrderRepository implements OrderRepository {
  constructor(private readonly db: SqliteDb) {
    super(sqliteSqlStore(db));
  }

  async record(order: Order): Promise<Order> {
    this.db.transaction((tx) => {
      const [inserted] = tx.insert(orders).values(order).onConflictDoNothing({ target: orders.sourceId }).returning().all();
      if (inserted) addSqliteRollups(tx, orderRollups(null, inserted));
      const customerEmail = inserted ? sqliteCustomerEmail(tx, inserted.customerId) : null;
      if (inserted && customerEmail !== null) emitSqliteEvent(tx, orderCompleted({ ...inserted, customerEmail }));
    });
    return this.recorded(order.sourceId);
  }

  async refund(id: string, total: number, at: number, expectRefunded?: number): Promise<Order | null> {
    const { set, where } = refundStatement(orders, id, total, at, expectRefunded);
    return this.db.transaction(
      (tx) => {
        const before = tx.select().from(orders).where(eq(orders.id, id)).get();
        const [changed] = tx.update(orders).set(set).where(where).returning().all();
        if (!before || !changed) return null;
        // A keyed refund (POST …/refund) names the order it recorded, with the record.
        linkSqliteClaim(tx, 'order', id);
        addSqliteRollups(tx, orderRollups(before, changed));
        const customerEmail = sqliteCustomerEmail(tx, changed.customerId);
        if (customerEmail !== null) emitSqliteEvent(tx, orderChanged(before, { ...changed, customerEmail }));
        return changed;
      },
      { behavior: 'immediate' },
    );
  }
}
