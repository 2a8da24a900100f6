import { and, eq, inArray, isNull, lt, notExists, or, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { SqlStore } from './sql-store.ts';

/**
 * The retention sweep's deletes: at most `limit` rows per statement, picked through the expiry
 * indexes, so one round holds the write lock briefly whatever the backlog. Each is one DELETE,
 * atomic on its own: sweeping twice, or from two connections, deletes each row once (on PostgreSQL
 * instances sweeping at the same moment skip each other's picked rows instead of queueing on them).
 */
export async function deleteBatch(store: SqlStore, table: PgTable, key: PgColumn, where: SQL | undefined, limit: number): Promise<number> {
  const picked = store.dialect.pickForDelete(store.db.select({ key }).from(table).where(where).limit(limit).$dynamic());
  const deleted = await store.db.delete(table).where(inArray(key, picked)).returning({ key });
  return deleted.length;
}

export function deleteExpiredChallenges(store: SqlStore, before: number, limit: number): Promise<number> {
  const { otpChallenges } = store.tables;
  return deleteBatch(store, otpChallenges, otpChallenges.id, lt(otpChallenges.expiresAt, before), limit);
}

/** Neither tried nor reset since `before`, and any lock ran out before it too: the count is forgiven. */
export function deleteIdleLoginFailures(store: SqlStore, before: number, limit: number): Promise<number> {
  const { loginFailures } = store.tables;
  const idle = and(lt(loginFailures.updatedAt, before), or(isNull(loginFailures.lockedUntil), lt(loginFailures.lockedUntil, before)));
  return deleteBatch(store, loginFailures, loginFailures.customerId, idle, limit);
}

/** Holders' deactivations made before `before`, which no quota window reaches any more. */
export function deleteOldDeactivations(store: SqlStore, before: number, limit: number): Promise<number> {
  const { deactivations } = store.tables;
  return deleteBatch(store, deactivations, deactivations.activationId, lt(deactivations.removedAt, before), limit);
}

export function deleteEndedTokens(store: SqlStore, before: number, limit: number): Promise<number> {
  const { identityTokens } = store.tables;
  const ended = or(lt(identityTokens.expiresAt, before), lt(identityTokens.revokedAt, before));
  return deleteBatch(store, identityTokens, identityTokens.tokenHash, ended, limit);
}

export function deleteExpiredConnectStates(store: SqlStore, before: number, limit: number): Promise<number> {
  const { connectStates } = store.tables;
  return deleteBatch(store, connectStates, connectStates.stateHash, lt(connectStates.expiresAt, before), limit);
}

export function deleteOutboxSentBefore(store: SqlStore, before: number, limit: number): Promise<number> {
  const { smsOutbox } = store.tables;
  return deleteBatch(store, smsOutbox, smsOutbox.id, lt(smsOutbox.sentAt, before), limit);
}

/** Never charged and never licensed: a license's foreign key keeps its purchase. */
export function deleteAbandonedPurchases(store: SqlStore, createdBefore: number, limit: number): Promise<number> {
  const { purchases, licenses } = store.tables;
  const abandoned = and(
    eq(purchases.status, 'pending'),
    lt(purchases.createdAt, createdBefore),
    isNull(purchases.licenseId),
    notExists(store.db.select({ id: licenses.id }).from(licenses).where(eq(licenses.purchaseId, purchases.id))),
  );
  return deleteBatch(store, purchases, purchases.id, abandoned, limit);
}

/** Pending or expired, never completed, and no license names it (whichever wrote first). */
export function deleteUnpaidCheckouts(store: SqlStore, expiredBefore: number, limit: number): Promise<number> {
  const { checkoutSessions, licenses } = store.tables;
  const unpaid = and(
    inArray(checkoutSessions.status, ['pending', 'expired']),
    lt(checkoutSessions.expiresAt, expiredBefore),
    isNull(checkoutSessions.licenseId),
    notExists(store.db.select({ id: licenses.id }).from(licenses).where(eq(licenses.checkoutSessionId, checkoutSessions.id))),
  );
  return deleteBatch(store, checkoutSessions, checkoutSessions.id, unpaid, limit);
}
