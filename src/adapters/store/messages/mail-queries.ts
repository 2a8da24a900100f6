import { and, count, desc, eq, gte, inArray, isNull, lt, lte, min, or, sql } from 'drizzle-orm';
import type { KeptMail, MailOutboxRepository, OutboxMail, QueuedMail, SandboxMailRepository } from '../../../ports/mail-repository.ts';
import { deleteBatch } from '../retention.ts';
import type { SqlStore } from '../sql-store.ts';

/** next_attempt_at of a mail given up on: never due again, swept like a sent one. */
export const GIVEN_UP = Number.MAX_SAFE_INTEGER;

/** The outbox row of a mail queued now: no attempt yet, due at once. */
export function outboxMailRow(mail: OutboxMail) {
  const { id, kind, licenseId, to, subject, text, html, createdAt } = mail;
  return { id, kind, licenseId, to, subject, text, html, createdAt, attempts: 0, nextAttemptAt: createdAt };
}

export class DrizzleSandboxMailRepository implements SandboxMailRepository {
  constructor(private readonly store: SqlStore) {}

  async add(mail: KeptMail): Promise<void> {
    const { to, subject, text, html, sentAt } = mail;
    await this.store.db.insert(this.store.tables.sandboxMail).values({ to, subject, text, html, sentAt });
  }

  async listFor(to: string, limit: number): Promise<KeptMail[]> {
    const { sandboxMail: m } = this.store.tables;
    return this.store.db
      .select({ to: m.to, subject: m.subject, text: m.text, html: m.html, sentAt: m.sentAt })
      .from(m)
      .where(eq(m.to, to))
      .orderBy(desc(m.sentAt), desc(m.id))
      .limit(limit);
  }

  deleteSentBefore(before: number, limit: number): Promise<number> {
    const { sandboxMail: m } = this.store.tables;
    return deleteBatch(this.store, m, m.id, lt(m.sentAt, before), limit);
  }
}

export class DrizzleMailOutboxRepository implements MailOutboxRepository {
  constructor(private readonly store: SqlStore) {}

  async enqueue(mail: OutboxMail): Promise<void> {
    await this.store.db.insert(this.store.tables.mailOutbox).values(outboxMailRow(mail));
  }

  async claimDue(now: number, limit: number, leaseMs: number): Promise<QueuedMail[]> {
    const { db, tables } = this.store;
    const m = tables.mailOutbox;
    const due = and(isNull(m.sentAt), lte(m.nextAttemptAt, now));
    // Read, then claim on the same condition: of senders that read the same mail, the one whose
    // UPDATE comes first moves it past the lease, and the others' UPDATEs (re-checking it once the
    // row is theirs) no longer match it. No lock is held between the two statements.
    const picked = await db.select({ id: m.id }).from(m).where(due).orderBy(m.nextAttemptAt, m.createdAt).limit(limit);
    if (picked.length === 0) return [];
    const claimed = await db
      .update(m)
      .set({ attempts: sql`${m.attempts} + 1`, nextAttemptAt: now + leaseMs })
      .where(and(inArray(m.id, picked.map((p) => p.id)), due))
      .returning();
    // RETURNING keeps no order: oldest first again.
    claimed.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    return claimed.map(({ id, kind, licenseId, to, subject, text, html, attempts, nextAttemptAt, createdAt }) => ({ id, kind, licenseId, to, subject, text, html, attempts, nextAttemptAt, createdAt }));
  }

  async markSent(id: string, at: number): Promise<void> {
    const m = this.store.tables.mailOutbox;
    await this.store.db.update(m).set({ sentAt: at, lastError: null }).where(eq(m.id, id));
  }

  async markFailed(id: string, error: string, nextAttemptAt: number | null): Promise<void> {
    const m = this.store.tables.mailOutbox;
    await this.store.db.update(m).set({ lastError: error.slice(0, 500), nextAttemptAt: nextAttemptAt ?? GIVEN_UP }).where(and(eq(m.id, id), isNull(m.sentAt)));
  }

  async release(id: string, error: string | null, nextAttemptAt: number): Promise<void> {
    const m = this.store.tables.mailOutbox;
    const lastError = error === null ? m.lastError : error.slice(0, 500);
    await this.store.db
      .update(m)
      .set({ attempts: sql`CASE WHEN ${m.attempts} > 0 THEN ${m.attempts} - 1 ELSE 0 END`, lastError, nextAttemptAt })
      .where(and(eq(m.id, id), isNull(m.sentAt)));
  }

  async backlog(): Promise<{ unsent: number; oldestCreatedAt: number | null }> {
    const m = this.store.tables.mailOutbox;
    // Within mail_outbox_due (sent_at, next_attempt_at, created_at): no row is read.
    const [row] = await this.store.db
      .select({ unsent: count(), oldest: min(m.createdAt) })
      .from(m)
      .where(and(isNull(m.sentAt), lt(m.nextAttemptAt, GIVEN_UP)));
    return { unsent: Number(row?.unsent ?? 0), oldestCreatedAt: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest) };
  }

  async countForLicense(licenseId: string, kinds: string[], since: number): Promise<number> {
    const m = this.store.tables.mailOutbox;
    const [row] = await this.store.db.select({ n: count() }).from(m).where(and(eq(m.licenseId, licenseId), inArray(m.kind, kinds), gte(m.createdAt, since)));
    return Number(row?.n ?? 0);
  }

  deleteDoneBefore(before: number, limit: number): Promise<number> {
    const m = this.store.tables.mailOutbox;
    return deleteBatch(this.store, m, m.id, or(lt(m.sentAt, before), and(eq(m.nextAttemptAt, GIVEN_UP), lt(m.createdAt, before))), limit);
  }
}
