import { eq, type SQL } from 'drizzle-orm';
import type { CheckoutSession } from '../../../domain/checkout-session.ts';
import type { CheckoutRepository } from '../../../ports/checkout-repository.ts';
import { deleteUnpaidCheckouts } from '../retention.ts';
import { oneOrNull, type SharedTables, type SqlStore } from '../sql-store.ts';

/** A stored session as the domain has it: the column `status` is its storedStatus. */
export function sessionOf(row: SharedTables['checkoutSessions']['$inferSelect'] | undefined | null): CheckoutSession | null {
  if (!row) return null;
  const { status, ...rest } = row;
  return { ...rest, storedStatus: status };
}

/** Each dialect's own: its transactional update (and the completion built on it), and the polled read by id, prepared. */
type DialectPart = 'update' | 'markComplete' | 'findById';

/** What the two checkout repositories share: creation and the reads and deletes outside transactions. */
export abstract class DrizzleCheckoutRepository implements Omit<CheckoutRepository, DialectPart> {
  constructor(protected readonly store: SqlStore) {}

  async create(session: CheckoutSession): Promise<void> {
    const { storedStatus, ...rest } = session;
    await this.store.db.insert(this.store.tables.checkoutSessions).values({ ...rest, status: storedStatus });
  }

  async findByProcessorSessionId(processorSessionId: string): Promise<CheckoutSession | null> {
    return this.findBy(eq(this.store.tables.checkoutSessions.processorSessionId, processorSessionId));
  }

  async findByPaymentId(paymentId: string): Promise<CheckoutSession | null> {
    return this.findBy(eq(this.store.tables.checkoutSessions.paymentId, paymentId));
  }

  async deleteUnpaid(before: number, limit: number): Promise<number> {
    return deleteUnpaidCheckouts(this.store, before, limit);
  }

  private async findBy(where: SQL): Promise<CheckoutSession | null> {
    return sessionOf(await oneOrNull(this.store.db.select().from(this.store.tables.checkoutSessions).where(where)));
  }
}
