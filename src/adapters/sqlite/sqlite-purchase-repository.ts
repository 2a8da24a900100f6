import { and, eq, lt, or, sql } from 'drizzle-orm';
import { NotFoundError } from '../../domain/errors.ts';
import type { Purchase } from '../../domain/purchase.ts';
import type { PurchaseRepository } from '../../ports/purchase-repository.ts';
import { purchases } from './schema.ts';
import type { SqliteDb } from './sqlite-store.ts';
import { deleteAbandonedPurchases } from './sqlite-retention.ts';

// Each state change is one conditional UPDATE: SQLite applies it atomically, whatever the connection.
// UPDATE … RETURNING is read with .all(): .get() leaves the statement open and the WAL never checkpoints.
export class SqlitePurchaseRepository implements PurchaseRepository {
  constructor(private readonly db: SqliteDb) {}

  async create(purchase: Purchase): Promise<void> {
    this.db.insert(purchases).values(purchase).run();
  }

  async findById(id: string): Promise<Purchase | null> {
    return this.db.select().from(purchases).where(eq(purchases.id, id)).get() ?? null;
  }

  async findByPaymentId(paymentId: string): Promise<Purchase | null> {
    return this.db.select().from(purchases).where(eq(purchases.paymentId, paymentId)).get() ?? null;
  }

  async beginCharge(id: string, cardId: string, at: number, staleBefore: number): Promise<{ started: boolean; purchase: Purchase }> {
    // SET expressions read the row as it was: a pending purchase starts a new attempt, a stale one resumes its own.
    const started = this.db
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
      .returning()
      .all();
    if (started[0]) return { started: true, purchase: started[0] };
    const purchase = await this.findById(id);
    if (!purchase) throw new NotFoundError('purchase');
    return { started: false, purchase };
  }

  async chargeFailed(id: string, attempt: number): Promise<void> {
    this.db
      .update(purchases)
      .set({ status: 'pending', chargingSince: null })
      .where(and(eq(purchases.id, id), eq(purchases.status, 'charging'), eq(purchases.attempt, attempt)))
      .run();
  }

  async markPaid(id: string, outcome: { paymentId: string; licenseId: string }): Promise<void> {
    const { paymentId, licenseId } = outcome;
    this.db
      .update(purchases)
      .set({ status: 'paid', paymentId, licenseId })
      .where(and(eq(purchases.id, id), eq(purchases.status, 'charging')))
      .run();
  }

  async deleteAbandoned(before: number, limit: number): Promise<number> {
    return deleteAbandonedPurchases(this.db, before, limit);
  }
}
