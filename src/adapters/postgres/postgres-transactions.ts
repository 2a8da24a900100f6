import { and, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { subscriptionRollups } from '../../domain/stats-rollups.ts';
import type { Subscription } from '../../domain/subscription.ts';
import type { KeyRotation } from '../../ports/signing-key-repository.ts';
import type { SqlTransactions } from '../drizzle/sql-store.ts';
import type { PostgresDb } from './postgres-store.ts';
import { addPostgresRollups } from './postgres-events.ts';
import { customers, savedCards, signingKeys, subscriptions } from './schema.ts';

/** The shared repositories' writes that need a transaction, on one pooled connection each. */
export function postgresTransactions(db: PostgresDb): SqlTransactions {
  return {
    async changePhone(customerId: string, from: string, to: string, at: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        const moved = await tx
          .update(customers)
          .set({ phone: to, phoneVerifiedAt: at })
          .where(and(eq(customers.id, customerId), eq(customers.phone, from), isNotNull(customers.phoneVerifiedAt)))
          .returning({ id: customers.id });
        if (moved.length !== 1) return false;
        await tx.update(savedCards).set({ phone: to }).where(and(eq(savedCards.customerId, customerId), eq(savedCards.phone, from)));
        return true;
      });
    },

    async rotateSigningKey({ next, after, retired }: KeyRotation): Promise<boolean> {
      return db.transaction(async (tx) => {
        // Concurrent rotations from one head queue on its row; under READ COMMITTED the second then
        // finds it no longer active and writes nothing (the partial unique index refuses two heads anyway).
        const head = and(eq(signingKeys.developerId, next.developerId), eq(signingKeys.kid, after), eq(signingKeys.active, true));
        const moved = await tx.update(signingKeys).set({ active: false }).where(head).returning({ kid: signingKeys.kid });
        if (moved.length !== 1) return false;
        for (const { kid, compromisedAt, retirement } of retired) {
          const mine = and(eq(signingKeys.developerId, next.developerId), eq(signingKeys.kid, kid), isNull(signingKeys.compromisedAt));
          await tx.update(signingKeys).set({ compromisedAt, retirement }).where(mine);
        }
        await tx.insert(signingKeys).values({ ...next, active: true });
        return true;
      });
    },
  
    async insertSubscription(subscription: Subscription): Promise<void> {
      await db.transaction(async (tx) => {
        const [inserted] = await tx.insert(subscriptions).values(subscription).onConflictDoNothing({ target: subscriptions.processorSubscriptionId }).returning();
        if (inserted) await addPostgresRollups(tx, subscriptionRollups(null, inserted));
      });
    },

    async updateSubscription(where: SQL, set: Record<string, SQL>): Promise<Subscription | null> {
      return db.transaction(async (tx) => {
        // The row is locked first, so `before` is the state the update replaces.
        const [before] = await tx.select().from(subscriptions).where(where).for('update');
        if (!before) return null;
        const [after] = await tx.update(subscriptions).set(set).where(eq(subscriptions.id, before.id)).returning();
        if (after) await addPostgresRollups(tx, subscriptionRollups(before, after));
        return after ?? null;
      });
    },
  };
}
