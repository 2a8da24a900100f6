import type { CheckoutSession } from '../../domain/checkout-session.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { CheckoutPatch, CheckoutRepository } from '../../ports/checkout-repository.ts';
import { copy, copyOrNull, type MemoryTables, requireRow, requireUnique } from './memory-tables.ts';
import { deleteUnpaidCheckouts } from './memory-retention.ts';

export class MemoryCheckoutRepository implements CheckoutRepository {
  constructor(private readonly tables: MemoryTables) {}

  async create(session: CheckoutSession): Promise<void> {
    const t = this.tables;
    requireUnique(t.checkouts.has(session.id), 'checkout_sessions.id');
    requireUnique(this.processorSessionTaken(session.processorSessionId), 'checkout_sessions.processor_session_id');
    requireRow(t.developers, session.developerId, 'checkout_sessions.developer_id');
    requireRow(t.products, session.productId, 'checkout_sessions.product_id');
    t.checkouts.set(session.id, copy(session));
  }

  async findById(id: string): Promise<CheckoutSession | null> {
    return copyOrNull(this.tables.checkouts.get(id));
  }

  async findByProcessorSessionId(processorSessionId: string): Promise<CheckoutSession | null> {
    return copyOrNull(this.find((s) => s.processorSessionId === processorSessionId));
  }

  async findByPaymentId(paymentId: string): Promise<CheckoutSession | null> {
    return copyOrNull(this.find((s) => s.paymentId === paymentId));
  }

  async update(id: string, patch: CheckoutPatch, expect: CheckoutPatch = {}): Promise<CheckoutSession | null> {
    const session = this.tables.checkouts.get(id);
    const expected = Object.entries(expect).every(([field, value]) => value === undefined || session?.[field as keyof CheckoutSession] === value);
    if (!session || !expected) return null;
    if (patch.processorSessionId != null) {
      requireUnique(this.find((s) => s.id !== id && s.processorSessionId === patch.processorSessionId) !== undefined, 'checkout_sessions.processor_session_id');
    }
    for (const [field, value] of Object.entries(patch)) if (value !== undefined) Object.assign(session, { [field]: value });
    return copy(session);
  }

  async markComplete(
    id: string,
    outcome: { licenseId: string; customerId: string; paymentId: string | null; completedAt: number },
  ): Promise<CheckoutSession> {
    // No await between the check and the write: the first completion wins, later ones read it.
    const session = this.tables.checkouts.get(id);
    if (!session) throw new NotFoundError('checkout session');
    if (session.licenseId === null) {
      const { licenseId, customerId, paymentId, completedAt } = outcome;
      Object.assign(session, { licenseId, customerId, paymentId, completedAt, storedStatus: 'complete' });
    }
    return copy(session);
  }

  private processorSessionTaken(processorSessionId: string | null): boolean {
    return processorSessionId !== null && this.find((s) => s.processorSessionId === processorSessionId) !== undefined;
  }

  private find(match: (session: CheckoutSession) => boolean): CheckoutSession | undefined {
    for (const session of this.tables.checkouts.values()) if (match(session)) return session;
    return undefined;
  }

  async deleteUnpaid(before: number, limit: number): Promise<number> {
    return deleteUnpaidCheckouts(this.tables, before, limit);
  }
}
