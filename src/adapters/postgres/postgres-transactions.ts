import { and, eq, isNotNull } from 'drizzle-orm';
import type { SigningKey } from '../../domain/developer.ts';
import type { SqlTransactions } from '../drizzle/sql-store.ts';
import type { PostgresDb } from './postgres-store.ts';
import { customers, developers, savedCards, signingKeys } from './schema.ts';

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

    async rotateSigningKey(next: SigningKey): Promise<void> {
      await db.transaction(async (tx) => {
        // Rotations of one developer queue on its row: under READ COMMITTED the UPDATE below then sees
        // the key a rotation before it committed (the partial unique index refuses two active keys anyway).
        await tx.select({ id: developers.id }).from(developers).where(eq(developers.id, next.developerId)).for('update');
        await tx.update(signingKeys).set({ active: false }).where(eq(signingKeys.developerId, next.developerId));
        await tx.insert(signingKeys).values({ ...next, active: true });
      });
    },
  };
}
