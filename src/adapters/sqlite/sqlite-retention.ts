import { and, eq, inArray, isNull, lt, notExists, or, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { checkoutSessions, connectStates, identityTokens, licenses, otpChallenges, purchases, smsOutbox } from './schema.ts';
import type { SqliteDb } from './sqlite-store.ts';

/**
 * The retention sweep's deletes: at most `limit` rows per statement, picked through the expiry
 * indexes, so one round holds the write lock briefly whatever the backlog. Each is one DELETE,
 * atomic on its own: sweeping twice, or from two connections, deletes each row once.
 */
function deleteBatch(db: SqliteDb, table: SQLiteTable, key: SQLiteColumn, where: SQL | undefined, limit: number): number {
  const picked = db.select({ key }).from(table).where(where).limit(limit);
  // RETURNING read with .all(): .get() would leave the statement open and keep the WAL from checkpointing.
  return db.delete(table).where(inArray(key, picked)).returning({ key }).all().length;
}

export function deleteExpiredChallenges(db: SqliteDb, before: number, limit: number): number {
  return deleteBatch(db, otpChallenges, otpChallenges.id, lt(otpChallenges.expiresAt, before), limit);
}

export function deleteEndedTokens(db: SqliteDb, before: number, limit: number): number {
  const ended = or(lt(identityTokens.expiresAt, before), lt(identityTokens.revokedAt, before));
  return deleteBatch(db, identityTokens, identityTokens.tokenHash, ended, limit);
}

export function deleteExpiredConnectStates(db: SqliteDb, before: number, limit: number): number {
  return deleteBatch(db, connectStates, connectStates.stateHash, lt(connectStates.expiresAt, before), limit);
}

export function deleteOutboxSentBefore(db: SqliteDb, before: number, limit: number): number {
  return deleteBatch(db, smsOutbox, smsOutbox.id, lt(smsOutbox.sentAt, before), limit);
}

/** Never charged and never licensed: a license's foreign key keeps its purchase. */
export function deleteAbandonedPurchases(db: SqliteDb, createdBefore: number, limit: number): number {
  const abandoned = and(
    eq(purchases.status, 'pending'),
    lt(purchases.createdAt, createdBefore),
    isNull(purchases.licenseId),
    notExists(db.select({ id: licenses.id }).from(licenses).where(eq(licenses.purchaseId, purchases.id))),
  );
  return deleteBatch(db, purchases, purchases.id, abandoned, limit);
}

/** Pending or expired, never completed, and no license names it (whichever wrote first). */
export function deleteUnpaidCheckouts(db: SqliteDb, expiredBefore: number, limit: number): number {
  const unpaid = and(
    inArray(checkoutSessions.status, ['pending', 'expired']),
    lt(checkoutSessions.expiresAt, expiredBefore),
    isNull(checkoutSessions.licenseId),
    notExists(db.select({ id: licenses.id }).from(licenses).where(eq(licenses.checkoutSessionId, checkoutSessions.id))),
  );
  return deleteBatch(db, checkoutSessions, checkoutSessions.id, unpaid, limit);
}
