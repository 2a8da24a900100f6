import { and, eq, isNull, sql } from 'drizzle-orm';
import type { CheckoutSession } from '../../domain/checkout-session.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { checkoutChanged } from '../../domain/events.ts';
import type { CheckoutRepository } from '../../ports/checkout-repository.ts';
import { checkoutSessions } from './schema.ts';
import { emitSqliteEvent } from './sqlite-events.ts';
import type { SqliteDb } from './sqlite-store.ts';
import { deleteUnpaidCheckouts } from './sqlite-retention.ts';

type Row = typeof checkoutSessions.$inferSelect;

export function sessionOf(row: Row | undefined): CheckoutSession | null {
  if (!row) return null;
  const { status, ...rest } = row;
  return { ...rest, storedStatus: status };
}

export class SqliteCheckoutRepository implements CheckoutRepository {
  // Polled every 2 s by every waiting client: prepared once (drizzle re-prepares unprepared queries).
  private readonly selectById;

  constructor(private readonly db: SqliteDb) {
    this.selectById = db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sql.placeholder('id'))).prepare();
  }

  async create(session: CheckoutSession): Promise<void> {
    const { storedStatus, ...rest } = session;
    this.db.insert(checkoutSessions).values({ ...rest, status: storedStatus }).run();
  }

  async findById(id: string): Promise<CheckoutSession | null> {
    return this.byId(id);
  }

  async findByProcessorSessionId(processorSessionId: string): Promise<CheckoutSession | null> {
    return sessionOf(this.db.select().from(checkoutSessions).where(eq(checkoutSessions.processorSessionId, processorSessionId)).get());
  }

  async findByPaymentId(paymentId: string): Promise<CheckoutSession | null> {
    return sessionOf(this.db.select().from(checkoutSessions).where(eq(checkoutSessions.paymentId, paymentId)).get());
  }

  async setProcessorSession(id: string, processorSessionId: string, checkoutUrl: string): Promise<void> {
    this.db.update(checkoutSessions).set({ processorSessionId, checkoutUrl }).where(eq(checkoutSessions.id, id)).run();
  }

  async markComplete(
    id: string,
    outcome: { licenseId: string; customerId: string; paymentId: string | null; completedAt: number },
  ): Promise<CheckoutSession> {
    // bun:sqlite is synchronous: the conditional update and the read happen with nothing in between.
    this.db
      .update(checkoutSessions)
      .set({ ...outcome, status: 'complete' })
      .where(and(eq(checkoutSessions.id, id), isNull(checkoutSessions.licenseId)))
      .run();
    const stored = this.byId(id);
    if (!stored) throw new NotFoundError('checkout session');
    return stored;
  }

  async markExpired(id: string): Promise<void> {
    this.db.transaction((tx) => {
      const [expired] = tx
        .update(checkoutSessions)
        .set({ status: 'expired' })
        .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.status, 'pending')))
        .returning()
        .all();
      if (expired) emitSqliteEvent(tx, checkoutChanged({ storedStatus: 'pending' }, sessionOf(expired)!));
    });
  }

  async setReconciledAt(id: string, at: number): Promise<void> {
    this.db.update(checkoutSessions).set({ reconciledAt: at }).where(eq(checkoutSessions.id, id)).run();
  }

  private byId(id: string): CheckoutSession | null {
    return sessionOf(this.selectById.get({ id }));
  }

  async deleteUnpaid(before: number, limit: number): Promise<number> {
    return deleteUnpaidCheckouts(this.db, before, limit);
  }
}
