import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Product } from '../../domain/product.ts';
import { linkPostgresClaim } from '../store/idempotency/idempotency-claim.ts';
import type { KeyRotation } from '../../ports/signing-key-repository.ts';
import type { SqlTransactions } from '../store/sql-store.ts';
import { postgresSubscriptionWrites } from '../store/subscriptions/postgres-subscription-writes.ts';
import type { PostgresDb } from './postgres-store.ts';
import { customers, products, savedCards, signingKeys } from '../store/tables.ts';

/** The shared repositories' writes that need a transaction, on one pooled connection each. */
export function postgresTransactions(db: PostgresDb): SqlTransactions {
  return {
    ...postgresSubscriptionWrites(db),

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

    async insertProduct(product: Product): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.insert(products).values(product);
        await linkPostgresClaim(tx, 'product', product.id);
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
  };
}
