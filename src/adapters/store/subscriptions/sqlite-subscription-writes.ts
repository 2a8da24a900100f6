import { and, eq, type SQL } from 'drizzle-orm';
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core';
import { subscriptionChanged, subscriptionCreated, subscriptionPaymentMismatch, type PaymentMismatch } from '../../../domain/events.ts';
import { subscriptionRollups } from '../../../domain/stats-rollups.ts';
import type { Subscription } from '../../../domain/subscription.ts';
import { withoutClaim } from './subscription-queries.ts';
import type { SubscriptionWrites } from '../sql-store.ts';
import { addSqliteRollups, emitSqliteEvent, sqliteCustomerEmail } from '../events/sqlite-events.ts';
import { customers, subscriptions } from '../../sqlite/schema.ts';
import type { SqliteDb } from '../../sqlite/sqlite-store.ts';

/**
 * A subscription's writes with the events they announce (events.ts), each in one IMMEDIATE
 * transaction: SQLite has one writer, so the row read first is the row the update changes, and a
 * repeated change finds nothing new to announce.
 */
export function sqliteSubscriptionWrites(db: SqliteDb): SubscriptionWrites {
  return {
    async insertSubscription(subscription: Subscription): Promise<boolean> {
      return db.transaction(
        (tx) => {
          const [row] = tx.insert(subscriptions).values(subscription).onConflictDoNothing({ target: subscriptions.processorSubscriptionId }).returning().all();
          if (!row) return false;
          const inserted = withoutClaim(row);
          addSqliteRollups(tx, subscriptionRollups(null, inserted));
          emitSqliteEvent(tx, subscriptionCreated({ ...inserted, customerEmail: sqliteCustomerEmail(tx, inserted.customerId) ?? '' }));
          return true;
        },
        { behavior: 'immediate' },
      );
    },

    async changeSubscription(key: SQL, set: Record<string, unknown>, condition?: SQL): Promise<Subscription | null> {
      return db.transaction(
        (tx) => {
          const [before] = tx.select({ row: subscriptions, email: customers.email }).from(subscriptions).innerJoin(customers, eq(customers.id, subscriptions.customerId)).where(key).all();
          if (!before) return null;
          const [row] = tx.update(subscriptions).set(set as SQLiteUpdateSetSource<typeof subscriptions>).where(and(key, condition)).returning().all();
          if (!row) return null;
          const after = withoutClaim(row);
          addSqliteRollups(tx, subscriptionRollups(withoutClaim(before.row), after));
          for (const event of subscriptionChanged(withoutClaim(before.row), { ...after, customerEmail: before.email })) emitSqliteEvent(tx, event);
          return after;
        },
        { behavior: 'immediate' },
      );
    },

    async reportPaymentMismatch(subscription: Subscription, mismatch: PaymentMismatch): Promise<void> {
      db.transaction((tx) => {
        emitSqliteEvent(tx, subscriptionPaymentMismatch({ ...subscription, customerEmail: sqliteCustomerEmail(tx, subscription.customerId) ?? '' }, mismatch));
      });
    },
  };
}
