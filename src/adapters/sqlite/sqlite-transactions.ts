import { and, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { subscriptionRollups } from '../../domain/stats-rollups.ts';
import type { Subscription } from '../../domain/subscription.ts';
import type { KeyRotation } from '../../ports/signing-key-repository.ts';
import type { SqlTransactions } from '../drizzle/sql-store.ts';
import { customers, savedCards, signingKeys, subscriptions } from './schema.ts';
import { addSqliteRollups } from './sqlite-events.ts';
import type { SqliteDb } from './sqlite-store.ts';

/**
 * The shared repositories' writes that need a transaction: bun:sqlite runs one synchronously, so
 * its statements are called, not awaited (an awaited one would run after the commit).
 */
export function sqliteTransactions(db: SqliteDb): SqlTransactions {
  return {
    async changePhone(customerId: string, from: string, to: string, at: number): Promise<boolean> {
      return db.transaction((tx) => {
        const moved = tx
          .update(customers)
          .set({ phone: to, phoneVerifiedAt: at })
          .where(and(eq(customers.id, customerId), eq(customers.phone, from), isNotNull(customers.phoneVerifiedAt)))
          .returning({ id: customers.id })
          .all();
        if (moved.length !== 1) return false;
        tx.update(savedCards).set({ phone: to }).where(and(eq(savedCards.customerId, customerId), eq(savedCards.phone, from))).run();
        return true;
      });
    },

    async rotateSigningKey({ next, after, retired }: KeyRotation): Promise<boolean> {
      return db.transaction((tx) => {
        const head = and(eq(signingKeys.developerId, next.developerId), eq(signingKeys.kid, after), eq(signingKeys.active, true));
        if (tx.update(signingKeys).set({ active: false }).where(head).returning({ kid: signingKeys.kid }).all().length !== 1) return false;
        for (const { kid, compromisedAt, retirement } of retired) {
          const mine = and(eq(signingKeys.developerId, next.developerId), eq(signingKeys.kid, kid), isNull(signingKeys.compromisedAt));
          tx.update(signingKeys).set({ compromisedAt, retirement }).where(mine).run();
        }
        tx.insert(signingKeys).values({ ...next, active: true }).run();
        return true;
      });
    },
  
    async insertSubscription(subscription: Subscription): Promise<void> {
      db.transaction((tx) => {
        const [inserted] = tx.insert(subscriptions).values(subscription).onConflictDoNothing({ target: subscriptions.processorSubscriptionId }).returning().all();
        if (inserted) addSqliteRollups(tx, subscriptionRollups(null, inserted));
      });
    },

    async updateSubscription(where: SQL, set: Record<string, SQL>): Promise<Subscription | null> {
      return db.transaction(
        (tx) => {
          const before = tx.select().from(subscriptions).where(where).get();
          if (!before) return null;
          const [after] = tx.update(subscriptions).set(set).where(eq(subscriptions.id, before.id)).returning().all();
          if (after) addSqliteRollups(tx, subscriptionRollups(before, after));
          return after ?? null;
        },
        { behavior: 'immediate' },
      );
    },
  };
}
