import { and, eq, sql } from 'drizzle-orm';
import type { CheckoutSession } from '../../../domain/checkout-session.ts';
import { NotFoundError } from '../../../domain/errors.ts';
import { checkoutChanged, checkoutPatchAnnounces } from '../../../domain/events.ts';
import type { CheckoutPatch, CheckoutRepository } from '../../../ports/checkout-repository.ts';
import { columnPatch } from '../column-patch.ts';
import { heldClaim, linkSqliteClaim } from '../idempotency/idempotency-claim.ts';
import { DrizzleCheckoutRepository, sessionOf } from './checkout-queries.ts';
import { sqliteSqlStore } from '../sql-store.ts';
import { checkoutSessions } from '../../sqlite/schema.ts';
import { emitSqliteEvent } from '../events/sqlite-events.ts';
import type { SqliteDb } from '../../sqlite/sqlite-store.ts';

const sessionPatch = columnPatch(checkoutSessions, { storedStatus: 'status' });

/** An update that announces nothing, in one statement (SQLite has one writer): `expect` is checked against the row as it is. */
function quietUpdate(db: Pick<SqliteDb, 'select' | 'update'>, id: string, patch: CheckoutPatch, expect?: CheckoutPatch): CheckoutSession | null {
  const set = sessionPatch.set(patch);
  const where = and(eq(checkoutSessions.id, id), sessionPatch.where(expect));
  const [row] = Object.keys(set).length === 0 ? db.select().from(checkoutSessions).where(where).all() : db.update(checkoutSessions).set(set).where(where).returning().all();
  return sessionOf(row);
}

export class SqliteCheckoutRepository extends DrizzleCheckoutRepository implements CheckoutRepository {
  // Polled every 2 s by every waiting client: prepared once (drizzle re-prepares unprepared queries).
  private readonly selectById;

  constructor(private readonly db: SqliteDb) {
    super(sqliteSqlStore(db));
    this.selectById = db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sql.placeholder('id'))).prepare();
  }

  async findById(id: string): Promise<CheckoutSession | null> {
    return this.byId(id);
  }

  async update(id: string, patch: CheckoutPatch, expect?: CheckoutPatch): Promise<CheckoutSession | null> {
    if (!checkoutPatchAnnounces(patch)) {
      // The URL is checkout init's answer: the session it completes is what the request's key guards.
      if (patch.checkoutUrl != null && heldClaim()) {
        return this.db.transaction((tx) => {
          const session = quietUpdate(tx, id, patch, expect);
          if (session) linkSqliteClaim(tx, 'checkout', id);
          return session;
        });
      }
      return quietUpdate(this.db, id, patch, expect);
    }
    return this.db.transaction(
      (tx) => {
        const before = sessionOf(tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).get());
        if (!before) return null;
        const set = sessionPatch.set(patch);
        const where = and(eq(checkoutSessions.id, id), sessionPatch.where(expect));
        // Nothing to write: only the expectation to check.
        const [row] = Object.keys(set).length === 0 ? tx.select().from(checkoutSessions).where(where).all() : tx.update(checkoutSessions).set(set).where(where).returning().all();
        const after = sessionOf(row);
        if (after) emitSqliteEvent(tx, checkoutChanged(before, after));
        return after;
      },
      { behavior: 'immediate' },
    );
  }

  async markComplete(
    id: string,
    outcome: { licenseId: string; customerId: string; paymentId: string | null; completedAt: number },
  ): Promise<CheckoutSession> {
    // Only a session without a license takes the outcome; a later one reads the first one's.
    const stored = (await this.update(id, { ...outcome, storedStatus: 'complete' }, { licenseId: null })) ?? this.byId(id);
    if (!stored) throw new NotFoundError('checkout session');
    return stored;
  }

  private byId(id: string): CheckoutSession | null {
    return sessionOf(this.selectById.get({ id }));
  }
}
