import type { CheckoutSession } from '../../domain/checkout-session.ts';
import type { MemoryTables } from './memory-tables.ts';

/** Deletes up to `limit` entries of `map` that `stale` picks, in insertion order, as the SQL stores' batches do. */
function deleteBatch<T>(map: Map<string, T>, stale: (row: T) => boolean, limit: number): number {
  let deleted = 0;
  for (const [key, row] of map) {
    if (deleted >= limit) break;
    if (stale(row) && map.delete(key)) deleted++;
  }
  return deleted;
}

export function deleteExpiredChallenges(tables: MemoryTables, before: number, limit: number): number {
  return deleteBatch(tables.otps, (c) => c.expiresAt < before, limit);
}

export function deleteEndedTokens(tables: MemoryTables, before: number, limit: number): number {
  return deleteBatch(tables.identityTokens, (t) => t.expiresAt < before || (t.revokedAt !== null && t.revokedAt < before), limit);
}

export function deleteExpiredConnectStates(tables: MemoryTables, before: number, limit: number): number {
  return deleteBatch(tables.connectStates, (s) => s.expiresAt < before, limit);
}

export function deleteOutboxSentBefore(tables: MemoryTables, before: number, limit: number): number {
  const outbox = tables.smsOutbox;
  let deleted = 0;
  for (let i = 0; i < outbox.length && deleted < limit; ) {
    if (outbox[i]!.sentAt < before) {
      outbox.splice(i, 1);
      deleted++;
    } else i++;
  }
  return deleted;
}

function licensed(tables: MemoryTables, field: 'purchaseId' | 'checkoutSessionId', id: string): boolean {
  for (const license of tables.licenses.values()) if (license[field] === id) return true;
  return false;
}

/** Never charged and never licensed: as in SQL, a license keeps its purchase. */
export function deleteAbandonedPurchases(tables: MemoryTables, createdBefore: number, limit: number): number {
  const abandoned = (p: { id: string; status: string; createdAt: number; licenseId: string | null }) =>
    p.status === 'pending' && p.createdAt < createdBefore && p.licenseId === null && !licensed(tables, 'purchaseId', p.id);
  return deleteBatch(tables.purchases, abandoned, limit);
}

/** Pending or expired, never completed, and no license names it. */
export function deleteUnpaidCheckouts(tables: MemoryTables, expiredBefore: number, limit: number): number {
  const unpaid = (s: CheckoutSession) =>
    s.storedStatus !== 'complete' && s.expiresAt < expiredBefore && s.licenseId === null && !licensed(tables, 'checkoutSessionId', s.id);
  return deleteBatch(tables.checkouts, unpaid, limit);
}
