import { and, eq, lt, or, sql } from 'drizzle-orm';
import { NotFoundError } from '../../../domain/errors.ts';
import type { Purchase } from '../../../domain/purchase.ts';
import type { PurchaseRepository } from '../../../ports/purchase-repository.ts';
import { deleteAbandonedPurchases } from '../retention.ts';
import { oneOrNull, type SqlStore } from '../sql-store.ts';

// Each state change is one conditional UPDATE: SQLite applies it atomically (one writer); under
// PostgreSQL's READ COMMITTED a racing UPDATE waits for the row, then re-checks its WHERE against
// the committed row. Either way one caller moves it, the others do not.
export class DrizzlePurchaseRepository implements PurchaseRepository {
  constructor(private readonly store: SqlStore) {}

  async create(purchase: Purchase): Promise<void> {
    await this.store.db.insert(this.store.tables.purchases).values(purchase);
  }

  async findById(id: string): Promise<Purchase | null> {
    const { purchases } = this.store.tables;
    return oneOrNull(this.store.db.select().from(purchases).where(eq(purchases.id, id)));
  }

  async findByPaymentId(paymentId: string): Promise<Purchase | null> {
    const { purchases } = this.store.tables;
    return oneOrNull(this.store.db.select().from(purchases).where(eq(purchases.paymentId, paymentId)));
  }

  async beginCharge(id: string, cardId: string, at: number, staleBefore: number): Promise<{ started: boolean; purchase: Purchase }> {
    const { purchases } = this.store.tables;
    // SET expressions read the row as it was: a pending purchase starts a new attempt, a stale one resumes its own.
    const [started] = await this.store.db
      .update(purchases)
      .set({
        status: 'charging',
        attempt: sql`CASE WHEN ${purchases.status} = 'pending' THEN ${purchases.attempt} + 1 ELSE ${purchases.attempt} END`,
        chargingSince: at,
        cardId,
      })
      .where(
        and(
          eq(purchases.id, id),
          or(eq(purchases.status, 'pending'), and(eq(purchases.status, 'charging'), lt(purchases.chargingSince, staleBefore))),
        ),
      )
      .returning();
    if (started) return { started: true, purchase: started };
    const purchase = await this.findById(id);
    if (!purchase) throw new NotFoundError('purchase');
    return { started: false, purchase };
  }

  async chargeFailed(id: string, attempt: number): Promise<void> {
    const { purchases } = this.store.tables;
    await this.store.db
      .update(purchases)
      .set({ status: 'pending', chargingSince: null })
      .where(and(eq(purchases.id, id), eq(purchases.status, 'charging'), eq(purchases.attempt, attempt)));
  }

  async markPaid(id: string, outcome: { paymentId: string; licenseId: string }): Promise<void> {
    const { purchases } = this.store.tables;
    const { paymentId, licenseId } = outcome;
    await this.store.db
      .update(purchases)
      .set({ status: 'paid', paymentId, licenseId })
      .where(and(eq(purchases.id, id), eq(purchases.status, 'charging')));
  }

  async deleteAbandoned(before: number, limit: number): Promise<number> {
    return deleteAbandonedPurchases(this.store, before, limit);
  }
}
