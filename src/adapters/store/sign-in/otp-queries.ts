import { and, asc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { LoginFailures, OtpChallenge, OtpScope } from '../../../domain/otp-challenge.ts';
import type { OtpRepository } from '../../../ports/otp-repository.ts';
import { deleteExpiredChallenges, deleteIdleLoginFailures } from '../retention.ts';
import { oneOrNull, type SqlStore } from '../sql-store.ts';

/** A failure count as the domain knows it: without the time retention counts from. */
const failureColumns = (t: SqlStore['tables']['loginFailures']) => ({ customerId: t.customerId, consecutive: t.consecutive, lockedUntil: t.lockedUntil });

// Every counter and every use-once write below is a single statement: SQLite applies it atomically
// (one writer), PostgreSQL locks the row for it, so concurrent callers each see their own result.
export class DrizzleOtpRepository implements OtpRepository {
  constructor(private readonly store: SqlStore) {}

  async create(challenge: OtpChallenge): Promise<void> {
    await this.store.db.insert(this.store.tables.otpChallenges).values(challenge);
  }

  async findById(id: string): Promise<OtpChallenge | null> {
    const { otpChallenges } = this.store.tables;
    return oneOrNull(this.store.db.select().from(otpChallenges).where(eq(otpChallenges.id, id)));
  }

  async sentSince(scope: OtpScope, subject: string, since: number): Promise<number[]> {
    const { otpChallenges } = this.store.tables;
    const rows = await this.store.db
      .select({ createdAt: otpChallenges.createdAt })
      .from(otpChallenges)
      .where(and(eq(otpChallenges.scope, scope), eq(otpChallenges.subject, subject), gte(otpChallenges.createdAt, since)))
      .orderBy(asc(otpChallenges.createdAt));
    return rows.map((r) => r.createdAt);
  }

  async recordAttempt(id: string): Promise<number> {
    const { otpChallenges } = this.store.tables;
    const [row] = await this.store.db
      .update(otpChallenges)
      .set({ attempts: sql`${otpChallenges.attempts} + 1` })
      .where(eq(otpChallenges.id, id))
      .returning({ attempts: otpChallenges.attempts });
    return row?.attempts ?? 0;
  }

  async consume(id: string, at: number): Promise<boolean> {
    return this.useUp(id, at);
  }

  async discard(id: string, at: number): Promise<void> {
    await this.useUp(id, at);
  }

  async loginFailures(customerId: string): Promise<LoginFailures | null> {
    const { loginFailures } = this.store.tables;
    return oneOrNull(this.store.db.select(failureColumns(loginFailures)).from(loginFailures).where(eq(loginFailures.customerId, customerId)));
  }

  /** domain `nextFailures` as one upsert: one statement, so concurrent attempts count one after the other. */
  async countTowardsLock(key: string, now: number, lockAt: number, lockMs: number): Promise<LoginFailures> {
    const { loginFailures } = this.store.tables;
    const { bound } = this.store.dialect;
    const { consecutive, lockedUntil } = loginFailures;
    const at = bound(now, 'bigint');
    const until = bound(now + lockMs, 'bigint');
    const limit = bound(lockAt, 'integer');
    const ranOut = sql`(${lockedUntil} IS NOT NULL AND ${at} >= ${lockedUntil})`;
    const [row] = await this.store.db
      .insert(loginFailures)
      .values({ customerId: key, consecutive: 1, lockedUntil: lockAt <= 1 ? now + lockMs : null, updatedAt: now })
      .onConflictDoUpdate({
        target: loginFailures.customerId,
        set: {
          consecutive: sql`CASE WHEN ${ranOut} THEN 1 ELSE ${consecutive} + 1 END`,
          lockedUntil: sql`CASE
            WHEN ${ranOut} THEN (CASE WHEN 1 >= ${limit} THEN ${until} ELSE NULL END)
            WHEN ${lockedUntil} IS NOT NULL THEN ${lockedUntil}
            WHEN ${consecutive} + 1 >= ${limit} THEN ${until}
            ELSE NULL END`,
          updatedAt: now,
        },
      })
      .returning(failureColumns(loginFailures));
    return row!;
  }

  async resetLoginFailures(customerId: string, now: number): Promise<void> {
    const { loginFailures } = this.store.tables;
    await this.store.db.update(loginFailures).set({ consecutive: 0, lockedUntil: null, updatedAt: now }).where(eq(loginFailures.customerId, customerId));
  }

  async deleteIdleLoginFailures(before: number, limit: number): Promise<number> {
    return deleteIdleLoginFailures(this.store, before, limit);
  }

  /** Sets used_at only if still unset: true for the one caller whose update changed the row. */
  private async useUp(id: string, at: number): Promise<boolean> {
    const { otpChallenges } = this.store.tables;
    const rows = await this.store.db
      .update(otpChallenges)
      .set({ usedAt: at })
      .where(and(eq(otpChallenges.id, id), isNull(otpChallenges.usedAt)))
      .returning({ id: otpChallenges.id });
    return rows.length === 1;
  }

  async deleteExpired(before: number, limit: number): Promise<number> {
    return deleteExpiredChallenges(this.store, before, limit);
  }
}
