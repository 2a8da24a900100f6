import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Product } from '../../domain/product.ts';
import { linkSqliteClaim } from '../store/idempotency/idempotency-claim.ts';
import type { KeyRotation } from '../../ports/signing-key-repository.ts';
import type { SqlTransactions } from '../store/sql-store.ts';
import { sqliteSubscriptionWrites } from '../store/subscriptions/sqlite-subscription-writes.ts';
import { customers, products, savedCards, signingKeys } from './schema.ts';
import type { SqliteDb } from './sqlite-store.ts';

/**
 * The shared repositories' writes that need a transaction: bun:sqlite runs one synchronously, so
 * its statements are called, not awaited (an awaited one would run after the commit).
 */
export function sqliteTransactions(db: SqliteDb): SqlTransactions {
  return {
    ...sqliteSubscriptionWrites(db),

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

    async insertProduct(product: Product): Promise<void> {
      db.transaction((tx) => {
        tx.insert(products).values(product).run();
        linkSqliteClaim(tx, 'product', product.id);
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
  };
}
