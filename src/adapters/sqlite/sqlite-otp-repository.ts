import { and, asc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { LoginFailures, OtpChallenge, OtpScope } from '../../domain/otp-challenge.ts';
import type { OtpRepository } from '../../ports/otp-repository.ts';
import { loginFailures, otpChallenges } from './schema.ts';
import type { SqliteDb } from './sqlite-store.ts';
import { deleteExpiredChallenges } from './sqlite-retention.ts';

// Every conditional write below is one statement: SQLite applies it atomically, whatever the connection.
// UPDATE … RETURNING is read with .all(): .get() leaves the statement open and the WAL never checkpoints.
export class SqliteOtpRepository implements OtpRepository {
  constructor(private readonly db: SqliteDb) {}

  async create(challenge: OtpChallenge): Promise<void> {
    this.db.insert(otpChallenges).values(challenge).run();
  }

  async findById(id: string): Promise<OtpChallenge | null> {
    return this.db.select().from(otpChallenges).where(eq(otpChallenges.id, id)).get() ?? null;
  }

  async sentSince(scope: OtpScope, subject: string, since: number): Promise<number[]> {
    const rows = this.db
      .select({ createdAt: otpChallenges.createdAt })
      .from(otpChallenges)
      .where(and(eq(otpChallenges.scope, scope), eq(otpChallenges.subject, subject), gte(otpChallenges.createdAt, since)))
      .orderBy(asc(otpChallenges.createdAt))
      .all();
    return rows.map((r) => r.createdAt);
  }

  async recordAttempt(id: string): Promise<number> {
    const rows = this.db
      .update(otpChallenges)
      .set({ attempts: sql`${otpChallenges.attempts} + 1` })
      .where(eq(otpChallenges.id, id))
      .returning({ attempts: otpChallenges.attempts })
      .all();
    return rows[0]?.attempts ?? 0;
  }

  async consume(id: string, at: number): Promise<boolean> {
    return this.useUp(id, at);
  }

  async discard(id: string, at: number): Promise<void> {
    this.useUp(id, at);
  }

  async loginFailures(customerId: string): Promise<LoginFailures | null> {
    return this.db.select().from(loginFailures).where(eq(loginFailures.customerId, customerId)).get() ?? null;
  }

  /** domain `nextFailures` as one upsert: SQLite runs it atomically, whatever the connection. */
  async countTowardsLock(key: string, now: number, lockAt: number, lockMs: number): Promise<LoginFailures> {
    const { consecutive, lockedUntil } = loginFailures;
    const ranOut = sql`(${lockedUntil} IS NOT NULL AND ${now} >= ${lockedUntil})`;
    const rows = this.db
      .insert(loginFailures)
      .values({ customerId: key, consecutive: 1, lockedUntil: lockAt <= 1 ? now + lockMs : null })
      .onConflictDoUpdate({
        target: loginFailures.customerId,
        set: {
          consecutive: sql`CASE WHEN ${ranOut} THEN 1 ELSE ${consecutive} + 1 END`,
          lockedUntil: sql`CASE
            WHEN ${ranOut} THEN (CASE WHEN 1 >= ${lockAt} THEN ${now + lockMs} ELSE NULL END)
            WHEN ${lockedUntil} IS NOT NULL THEN ${lockedUntil}
            WHEN ${consecutive} + 1 >= ${lockAt} THEN ${now + lockMs}
            ELSE NULL END`,
        },
      })
      .returning()
      .all();
    return rows[0]!;
  }

  async resetLoginFailures(customerId: string): Promise<void> {
    this.db.update(loginFailures).set({ consecutive: 0, lockedUntil: null }).where(eq(loginFailures.customerId, customerId)).run();
  }

  /** Sets used_at only if still unset: true for the one caller whose update changed the row. */
  private useUp(id: string, at: number): boolean {
    const rows = this.db
      .update(otpChallenges)
      .set({ usedAt: at })
      .where(and(eq(otpChallenges.id, id), isNull(otpChallenges.usedAt)))
      .returning({ id: otpChallenges.id })
      .all();
    return rows.length === 1;
  }

  async deleteExpired(before: number, limit: number): Promise<number> {
    return deleteExpiredChallenges(this.db, before, limit);
  }
}
