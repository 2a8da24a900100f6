import { NotFoundError } from '../../domain/errors.ts';
import type { Purchase } from '../../domain/purchase.ts';
import type { PurchaseRepository } from '../../ports/purchase-repository.ts';
import { copy, copyOrNull, type MemoryTables, requireRow, requireUnique } from './memory-tables.ts';
import { deleteAbandonedPurchases } from './memory-retention.ts';

// No await between any check and its write: each state change is atomic, as SQLite's conditional UPDATEs are.
export class MemoryPurchaseRepository implements PurchaseRepository {
  constructor(private readonly tables: MemoryTables) {}

  async create(purchase: Purchase): Promise<void> {
    const t = this.tables;
    requireUnique(t.purchases.has(purchase.id), 'purchases.id');
    requireRow(t.customers, purchase.customerId, 'purchases.customer_id');
    requireRow(t.developers, purchase.developerId, 'purchases.developer_id');
    requireRow(t.products, purchase.productId, 'purchases.product_id');
    if (purchase.cardId !== null) requireRow(t.savedCards, purchase.cardId, 'purchases.card_id');
    t.purchases.set(purchase.id, copy(purchase));
  }

  async findById(id: string): Promise<Purchase | null> {
    return copyOrNull(this.tables.purchases.get(id));
  }

  async findByPaymentId(paymentId: string): Promise<Purchase | null> {
    for (const purchase of this.tables.purchases.values()) if (purchase.paymentId === paymentId) return copy(purchase);
    return null;
  }

  async beginCharge(id: string, cardId: string, at: number, staleBefore: number): Promise<{ started: boolean; purchase: Purchase }> {
    const purchase = this.tables.purchases.get(id);
    if (!purchase) throw new NotFoundError('purchase');
    const fresh = purchase.status === 'pending';
    const stale = purchase.status === 'charging' && purchase.chargingSince !== null && purchase.chargingSince < staleBefore;
    if (!fresh && !stale) return { started: false, purchase: copy(purchase) };
    requireRow(this.tables.savedCards, cardId, 'purchases.card_id');
    // A stale attempt keeps its number: retrying it reuses its idempotency key.
    Object.assign(purchase, { status: 'charging', attempt: purchase.attempt + (fresh ? 1 : 0), chargingSince: at, cardId });
    return { started: true, purchase: copy(purchase) };
  }

  async chargeFailed(id: string, attempt: number): Promise<void> {
    const purchase = this.tables.purchases.get(id);
    if (purchase?.status !== 'charging' || purchase.attempt !== attempt) return;
    purchase.status = 'pending';
    purchase.chargingSince = null;
  }

  async markPaid(id: string, outcome: { paymentId: string; licenseId: string }): Promise<void> {
    const purchase = this.tables.purchases.get(id);
    if (purchase?.status !== 'charging') return;
    Object.assign(purchase, { status: 'paid', paymentId: outcome.paymentId, licenseId: outcome.licenseId });
  }

  async deleteAbandoned(before: number, limit: number): Promise<number> {
    return deleteAbandonedPurchases(this.tables, before, limit);
  }
}
