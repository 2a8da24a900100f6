import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { TrialRequest } from '../../../domain/trial.ts';
import type { TrialRequestRepository } from '../../../ports/trial-request-repository.ts';
import { deleteBatch } from '../retention.ts';
import { oneOrNull, type SqlStore } from '../sql-store.ts';

export class DrizzleTrialRequestRepository implements TrialRequestRepository {
  constructor(private readonly store: SqlStore) {}

  async create(request: TrialRequest): Promise<void> {
    await this.store.db.insert(this.store.tables.trialRequests).values(request);
  }

  async findById(id: string): Promise<TrialRequest | null> {
    const r = this.store.tables.trialRequests;
    return oneOrNull(this.store.db.select().from(r).where(eq(r.id, id)).limit(1));
  }

  async confirm(id: string, at: number): Promise<TrialRequest | null> {
    const r = this.store.tables.trialRequests;
    // One conditional UPDATE: the row's lock (PostgreSQL) or the single writer (SQLite) lets exactly
    // one of concurrent confirmations match it; the others find confirmed_at set and update nothing.
    const won = await this.store.db
      .update(r)
      .set({ confirmedAt: at })
      .where(and(eq(r.id, id), isNull(r.confirmedAt), gt(r.expiresAt, at)))
      .returning();
    return won[0] ?? null;
  }

  deleteExpired(before: number, limit: number): Promise<number> {
    const r = this.store.tables.trialRequests;
    return deleteBatch(this.store, r, r.id, lt(r.expiresAt, before), limit);
  }
}
