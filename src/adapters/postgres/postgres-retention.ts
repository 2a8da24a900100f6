import { and, eq, inArray, isNull, lt, notExists, or, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { checkoutSessions, connectStates, identityTokens, licenses, otpChallenges, purchases, smsOutbox } from './schema.ts';
import type { PostgresDb } from './postgres-store.ts';

/**
 * The retention sweep's deletes: at most `limit` rows per statement, picked through the expiry
 * indexes. SKIP LOCKED lets instances sweeping at the same moment take different rows instead of
 * queueing on each other's; a row is deleted once whoever gets it.
 */
async function deleteBatch(db: PostgresDb, table: PgTable, key: PgColumn, where: SQL | undefined, limit: number): Promise<number> {
  const picked = db.select({ key }).from(table).where(where).limit(limit).for('update', { skipLocked: true });
  const deleted = await db.delete(table).where(inArray(key, picked)).returning({ key });
  return deleted.length;
}

export function deleteExpiredChallenges(db: PostgresDb, before: number, limit: number): Promise<number> {
  return deleteBatch(db, otpChallenges, otpChallenges.id, lt(otpChallenges.expiresAt, before), limit);
}

export function deleteEndedTokens(db: PostgresDb, before: number, limit: number): Promise<number> {
  const ended = or(lt(identityTokens.expiresAt, before), lt(identityTokens.revokedAt, before));
  return deleteBatch(db, identityTokens, identityTokens.tokenHash, ended, limit);
}

export function deleteExpiredConnectStates(db: PostgresDb, before: number, limit: number): Promise<number> {
  return deleteBatch(db, connectStates, connectStates.stateHash, lt(connectStates.expiresAt, before), limit);
}

export function deleteOutboxSentBefore(db: PostgresDb, before: number, limit: number): Promise<number> {
  return deleteBatch(db, smsOutbox, smsOutbox.id, lt(smsOutbox.sentAt, before), limit);
}

/** Never charged and never licensed: a license's foreign key keeps its purchase. */
export function deleteAbandonedPurchases(db: PostgresDb, createdBefore: number, limit: number): Promise<number> {
  const abandoned = and(
    eq(purchases.status, 'pending'),
    lt(purchases.createdAt, createdBefore),
    isNull(purchases.licenseId),
    notExists(db.select({ id: licenses.id }).from(licenses).where(eq(licenses.purchaseId, purchases.id))),
  );
  return deleteBatch(db, purchases, purchases.id, abandoned, limit);
}

/** Pending or expired, never completed, and no license names it (whichever wrote first). */
export function deleteUnpaidCheckouts(db: PostgresDb, expiredBefore: number, limit: number): Promise<number> {
  const unpaid = and(
    inArray(checkoutSessions.status, ['pending', 'expired']),
    lt(checkoutSessions.expiresAt, expiredBefore),
    isNull(checkoutSessions.licenseId),
    notExists(db.select({ id: licenses.id }).from(licenses).where(eq(licenses.checkoutSessionId, checkoutSessions.id))),
  );
  return deleteBatch(db, checkoutSessions, checkoutSessions.id, unpaid, limit);
}
