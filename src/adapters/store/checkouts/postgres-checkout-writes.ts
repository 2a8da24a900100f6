import { and, eq, sql } from 'drizzle-orm';
import type { CheckoutSession } from '../../../domain/checkout-session.ts';
import { NotFoundError } from '../../../domain/errors.ts';
import { checkoutChanged, checkoutPatchAnnounces } from '../../../domain/events.ts';
import type { CheckoutPatch, CheckoutRepository } from '../../../ports/checkout-repository.ts';
import { columnPatch } from '../column-patch.ts';
import { heldClaim, linkPostgresClaim } from '../idempotency/idempotency-claim.ts';
import { DrizzleCheckoutRepository, sessionOf } from './checkout-queries.ts';
import { postgresSqlStore } from '../sql-store.ts';
import { checkoutSessions } from '../tables.ts';
import { emitPostgresEvent, type PostgresWriter } from '../events/postgres-events.ts';
import type { PostgresDb } from '../../postgres/postgres-store.ts';

const sessionPatch = columnPatch(checkoutSessions, { storedStatus: 'status' });

/** An update that announces nothing, in one statement: a racing update waits on the row lock, then checks `expect` against this one's values. */
async function quietUpdate(db: PostgresWriter, id: string, patch: CheckoutPatch, expect?: CheckoutPatch): Promise<CheckoutSession | null> {
  const set = sessionPatch.set(patch);
  const where = and(eq(checkoutSessions.id, id), sessionPatch.where(expect));
  const [row] = Object.keys(set).length === 0 ? await db.select().from(checkoutSessions).where(where) : await db.update(checkoutSessions).set(set).where(where).returning();
  return sessionOf(row);
}

export class PostgresCheckoutRepository extends DrizzleCheckoutRepository implements CheckoutRepository {
  // Polled every 2 s by every waiting client: a named prepared statement.
  private readonly selectById;

  constructor(private readonly db: PostgresDb) {
    super(postgresSqlStore(db));
    this.selectById = db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sql.placeholder('id'))).prepare('checkout_by_id');
  }

  async findById(id: string): Promise<CheckoutSession | null> {
    const [row] = await this.selectById.execute({ id });
    return sessionOf(row);
  }

  async update(id: string, patch: CheckoutPatch, expect?: CheckoutPatch): Promise<CheckoutSession | null> {
    if (!checkoutPatchAnnounces(patch)) {
      // The URL is checkout init's answer: the session it completes is what the request's key guards.
      if (patch.checkoutUrl != null && heldClaim()) {
        return this.db.transaction(async (tx) => {
          const session = await quietUpdate(tx, id, patch, expect);
          if (session) await linkPostgresClaim(tx, 'checkout', id);
          return session;
        });
      }
      return quietUpdate(this.db, id, patch, expect);
    }
    return this.db.transaction(async (tx) => {
      // The row lock serializes updates of one session: a racing one waits, then sees this one's values.
      const [found] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).for('update');
      const before = sessionOf(found);
      if (!before) return null;
      const set = sessionPatch.set(patch);
      const where = and(eq(checkoutSessions.id, id), sessionPatch.where(expect));
      // Nothing to write: only the expectation to check.
      const [row] = Object.keys(set).length === 0 ? await tx.select().from(checkoutSessions).where(where) : await tx.update(checkoutSessions).set(set).where(where).returning();
      const after = sessionOf(row);
      if (after) await emitPostgresEvent(tx, checkoutChanged(before, after));
      return after;
    });
  }

  async markComplete(
    id: string,
    outcome: { licenseId: string; customerId: string; paymentId: string | null; completedAt: number },
  ): Promise<CheckoutSession> {
    // Only a session without a license takes the outcome; a racing completion waits for the
    // winner's commit, matches nothing, and reads the winner's outcome.
    const stored = (await this.update(id, { ...outcome, storedStatus: 'complete' }, { licenseId: null })) ?? (await this.findById(id));
    if (!stored) throw new NotFoundError('checkout session');
    return stored;
  }
}
