import { and, eq, isNull, sql } from 'drizzle-orm';
import type { CheckoutSession } from '../../domain/checkout-session.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { checkoutChanged } from '../../domain/events.ts';
import type { CheckoutRepository } from '../../ports/checkout-repository.ts';
import { checkoutSessions } from './schema.ts';
import { emitPostgresEvent } from './postgres-events.ts';
import type { PostgresDb } from './postgres-store.ts';
import { deleteUnpaidCheckouts } from './postgres-retention.ts';

type Row = typeof checkoutSessions.$inferSelect;

export function sessionOf(row: Row | undefined): CheckoutSession | null {
  if (!row) return null;
  const { status, ...rest } = row;
  return { ...rest, storedStatus: status };
}

export class PostgresCheckoutRepository implements CheckoutRepository {
  // Polled every 2 s by every waiting client: a named prepared statement.
  private readonly selectById;

  constructor(private readonly db: PostgresDb) {
    this.selectById = db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sql.placeholder('id'))).prepare('checkout_by_id');
  }

  async create(session: CheckoutSession): Promise<void> {
    const { storedStatus, ...rest } = session;
    await this.db.insert(checkoutSessions).values({ ...rest, status: storedStatus });
  }

  async findById(id: string): Promise<CheckoutSession | null> {
    const [row] = await this.selectById.execute({ id });
    return sessionOf(row);
  }

  async findByProcessorSessionId(processorSessionId: string): Promise<CheckoutSession | null> {
    return this.findBy(eq(checkoutSessions.processorSessionId, processorSessionId));
  }

  async findByPaymentId(paymentId: string): Promise<CheckoutSession | null> {
    return this.findBy(eq(checkoutSessions.paymentId, paymentId));
  }

  async setProcessorSession(id: string, processorSessionId: string, checkoutUrl: string): Promise<void> {
    await this.db.update(checkoutSessions).set({ processorSessionId, checkoutUrl }).where(eq(checkoutSessions.id, id));
  }

  async markComplete(
    id: string,
    outcome: { licenseId: string; customerId: string; paymentId: string | null; completedAt: number },
  ): Promise<CheckoutSession> {
    // Only a session without a license takes the outcome. A racing UPDATE waits for the winner's
    // commit and then matches nothing; the SELECT after it reads the winner's outcome.
    const [won] = await this.db
      .update(checkoutSessions)
      .set({ ...outcome, status: 'complete' })
      .where(and(eq(checkoutSessions.id, id), isNull(checkoutSessions.licenseId)))
      .returning();
    const stored = won ? sessionOf(won) : await this.findById(id);
    if (!stored) throw new NotFoundError('checkout session');
    return stored;
  }

  async markExpired(id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [expired] = await tx
        .update(checkoutSessions)
        .set({ status: 'expired' })
        .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.status, 'pending')))
        .returning();
      if (expired) await emitPostgresEvent(tx, checkoutChanged({ storedStatus: 'pending' }, sessionOf(expired)!));
    });
  }

  async setReconciledAt(id: string, at: number): Promise<void> {
    await this.db.update(checkoutSessions).set({ reconciledAt: at }).where(eq(checkoutSessions.id, id));
  }

  private async findBy(where: ReturnType<typeof eq>): Promise<CheckoutSession | null> {
    const [row] = await this.db.select().from(checkoutSessions).where(where);
    return sessionOf(row);
  }

  async deleteUnpaid(before: number, limit: number): Promise<number> {
    return deleteUnpaidCheckouts(this.db, before, limit);
  }
}
