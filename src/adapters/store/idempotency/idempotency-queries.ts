import { and, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { IdempotencyClaim, IdempotencyRecord } from '../../../domain/idempotency.ts';
import type { IdempotencyRepository } from '../../../ports/idempotency-repository.ts';
import type { SqlStore } from '../sql-store.ts';

export class DrizzleIdempotencyRepository implements IdempotencyRepository {
  constructor(private readonly store: SqlStore) {}

  async claim(claim: IdempotencyClaim, lostBefore: number): Promise<IdempotencyRecord | null> {
    const { idempotencyKeys: keys } = this.store.tables;
    const fresh = { ...claim, status: 'in_progress' as const, responseStatus: null, responseBody: null, objectKind: null, objectId: null, heartbeatAt: claim.createdAt };
    // A record from before heartbeats has none: its claim time stands in.
    const lost = and(eq(keys.status, 'in_progress'), isNull(keys.objectId), lte(sql`coalesce(${keys.heartbeatAt}, ${keys.createdAt})`, lostBefore));
    // The primary key decides: one insert (or take-over of an expired or lost record) returns a row, however many race.
    const won = await this.store.db
      .insert(keys)
      .values(fresh)
      .onConflictDoUpdate({ target: [keys.scope, keys.key], set: fresh, setWhere: or(lte(keys.expiresAt, claim.createdAt), lost) })
      .returning({ key: keys.key });
    if (won.length === 1) return null;
    const [held] = await this.store.db.select().from(keys).where(this.of(claim.scope, claim.key)).limit(1);
    // Gone between the two statements (released by a failed first request): it is as in progress; a retry runs.
    return held ?? { ...fresh, status: 'in_progress' };
  }

  async complete(scope: string, key: string, status: number, body: string): Promise<void> {
    const { idempotencyKeys: keys } = this.store.tables;
    await this.store.db.update(keys).set({ status: 'done', responseStatus: status, responseBody: body }).where(and(this.of(scope, key), eq(keys.status, 'in_progress')));
  }

  async heartbeat(scope: string, key: string, at: number): Promise<void> {
    const { idempotencyKeys: keys } = this.store.tables;
    await this.store.db.update(keys).set({ heartbeatAt: at }).where(and(this.of(scope, key), eq(keys.status, 'in_progress')));
  }

  async release(scope: string, key: string): Promise<void> {
    const { idempotencyKeys: keys } = this.store.tables;
    await this.store.db.delete(keys).where(and(this.of(scope, key), eq(keys.status, 'in_progress'), isNull(keys.objectId)));
  }

  async deleteExpired(before: number, limit: number): Promise<number> {
    const { idempotencyKeys: keys } = this.store.tables;
    // A two-column key: the batch is picked by key and the delete narrowed to the expired rows again,
    // so another scope's live record with the same key stays.
    const expired = lt(keys.expiresAt, before);
    const picked = this.store.dialect.pickForDelete(this.store.db.select({ key: keys.key }).from(keys).where(expired).limit(limit).$dynamic());
    const deleted = await this.store.db.delete(keys).where(and(expired, inArray(keys.key, picked))).returning({ key: keys.key });
    return deleted.length;
  }

  private of(scope: string, key: string) {
    const { idempotencyKeys: keys } = this.store.tables;
    return and(eq(keys.scope, scope), eq(keys.key, key));
  }
}
