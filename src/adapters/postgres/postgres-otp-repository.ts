import { and, asc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { LoginFailures, OtpChallenge, OtpScope } from '../../domain/otp-challenge.ts';
import type { OtpRepository } from '../../ports/otp-repository.ts';
import { loginFailures, otpChallenges } from './schema.ts';
import type { PostgresDb } from './postgres-store.ts';
import { deleteExpiredChallenges } from './postgres-retention.ts';

// Every counter and every use-once write below is a single statement: PostgreSQL locks the row
// for it, so concurrent callers on any connection or instance each see their own result.
export class PostgresOtpRepository implements OtpRepository {
  constructor(private readonly db: PostgresDb) {}

  async create(challenge: OtpChallenge): Promise<void> {
    await this.db.insert(otpChallenges).values(challenge);
  }

  async findById(id: string): Promise<OtpChallenge | null> {
    const [row] = await this.db.select().from(otpChallenges).where(eq(otpChallenges.id, id));
    return row ?? null;
  }

  async sentSince(scope: OtpScope, subject: string, since: number): Promise<number[]> {
    const rows = await this.db
      .select({ createdAt: otpChallenges.createdAt })
      .from(otpChallenges)
      .where(and(eq(otpChallenges.scope, scope), eq(otpChallenges.subject, subject), gte(otpChallenges.createdAt, since)))
      .orderBy(asc(otpChallenges.createdAt));
    return rows.map((r) => r.createdAt);
  }

  async recordAttempt(id: string): Promise<number> {
    const [row] = await this.db
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
    const [row] = await this.db.select().from(loginFailures).where(eq(loginFailures.customerId, customerId));
    return row ?? null;
  }

  /** domain `nextFailures` as one upsert: ON CONFLICT DO UPDATE locks the row, so concurrent attempts queue. */
  async countTowardsLock(key: string, now: number, lockAt: number, lockMs: number): Promise<LoginFailures> {
    const { consecutive, lockedUntil } = loginFailures;
    const at = sql`${now}::bigint`;
    const until = sql`${now + lockMs}::bigint`;
    const limit = sql`${lockAt}::integer`;
    const ranOut = sql`(${lockedUntil} IS NOT NULL AND ${at} >= ${lockedUntil})`;
    const [row] = await this.db
      .insert(loginFailures)
      .values({ customerId: key, consecutive: 1, lockedUntil: lockAt <= 1 ? now + lockMs : null })
      .onConflictDoUpdate({
        target: loginFailures.customerId,
        set: {
          consecutive: sql`CASE WHEN ${ranOut} THEN 1 ELSE ${consecutive} + 1 END`,
          lockedUntil: sql`CASE
            WHEN ${ranOut} THEN (CASE WHEN 1 >= ${limit} THEN ${until} ELSE NULL END)
            WHEN ${lockedUntil} IS NOT NULL THEN ${lockedUntil}
            WHEN ${consecutive} + 1 >= ${limit} THEN ${until}
            ELSE NULL END`,
        },
      })
      .returning();
    return row!;
  }

  async resetLoginFailures(customerId: string): Promise<void> {
    await this.db.update(loginFailures).set({ consecutive: 0, lockedUntil: null }).where(eq(loginFailures.customerId, customerId));
  }

  /** Sets used_at only if still unset: true for the one caller whose update changed the row. */
  private async useUp(id: string, at: number): Promise<boolean> {
    const rows = await this.db
      .update(otpChallenges)
      .set({ usedAt: at })
      .where(and(eq(otpChallenges.id, id), isNull(otpChallenges.usedAt)))
      .returning({ id: otpChallenges.id });
    return rows.length === 1;
  }

  async deleteExpired(before: number, limit: number): Promise<number> {
    return deleteExpiredChallenges(this.db, before, limit);
  }
}
