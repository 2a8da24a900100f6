import { and, eq, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { subscriptionChanged, subscriptionCreated, subscriptionPaymentMismatch, type PaymentMismatch } from '../../../domain/events.ts';
import { subscriptionRollups } from '../../../domain/stats-rollups.ts';
import type { Subscription } from '../../../domain/subscription.ts';
import { withoutClaim } from './subscription-queries.ts';
import type { SubscriptionWrites } from '../sql-store.ts';
import { addPostgresRollups, emitPostgresEvent, postgresCustomerEmail } from '../events/postgres-events.ts';
import type { PostgresDb } from '../../postgres/postgres-store.ts';
import { customers, subscriptions } from '../tables.ts';

/**
 * A subscription's writes with the events they announce (events.ts), each in one transaction. A
 * change first takes the row (FOR UPDATE): concurrent changes of one subscription queue there, and
 * each reads the row the one before it left, so a change applied twice, or by two instances at
 * once, announces its event once.
 */
export function postgresSubscriptionWrites(db: PostgresDb): SubscriptionWrites {
  return {
    async insertSubscription(subscription: Subscription): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(subscriptions).values(subscription).onConflictDoNothing({ target: subscriptions.processorSubscriptionId }).returning();
        if (!row) return false;
        const inserted = withoutClaim(row);
        await addPostgresRollups(tx, subscriptionRollups(null, inserted));
        await emitPostgresEvent(tx, subscriptionCreated({ ...inserted, customerEmail: (await postgresCustomerEmail(tx, inserted.customerId)) ?? '' }));
        return true;
      });
    },

    async changeSubscription(key: SQL, set: Record<string, unknown>, condition?: SQL): Promise<Subscription | null> {
      return db.transaction(async (tx) => {
        const [before] = await tx
          .select({ row: subscriptions, email: customers.email })
          .from(subscriptions)
          .innerJoin(customers, eq(customers.id, subscriptions.customerId))
          .where(key)
          .for('update', { of: subscriptions });
        if (!before) return null;
        const [row] = await tx.update(subscriptions).set(set as PgUpdateSetSource<typeof subscriptions>).where(and(key, condition)).returning();
        if (!row) return null;
        const after = withoutClaim(row);
        await addPostgresRollups(tx, subscriptionRollups(withoutClaim(before.row), after));
        for (const event of subscriptionChanged(withoutClaim(before.row), { ...after, customerEmail: before.email })) await emitPostgresEvent(tx, event);
        return after;
      });
    },

    async reportPaymentMismatch(subscription: Subscription, mismatch: PaymentMismatch): Promise<void> {
      await db.transaction(async (tx) => {
        const customerEmail = (await postgresCustomerEmail(tx, subscription.customerId)) ?? '';
        await emitPostgresEvent(tx, subscriptionPaymentMismatch({ ...subscription, customerEmail }, mismatch));
      });
    },
  };
}
