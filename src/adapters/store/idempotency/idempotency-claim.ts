import { AsyncLocalStorage } from 'node:async_hooks';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { SQLITE_PARTS, type SharedTables } from '../sql-store.ts';
import type { PostgresWriter } from '../events/postgres-events.ts';
import { idempotencyKeys as pgKeys } from '../tables.ts';
import type { SqliteWriter } from '../events/sqlite-events.ts';
import { idempotencyKeys as liteKeys } from '../../sqlite/schema.ts';

/**
 * The Idempotency-Key a request holds while its handler runs, so the store write that creates what
 * the key guards can link the key to it in that write's own transaction: once the object is
 * committed, the key names it, and a retry after a crash answers it instead of writing a second.
 */
export interface HeldClaim {
  scope: string;
  key: string;
  /**
   * The answer, sealed, when the route knows it before its write and the write leaves nothing to
   * rebuild it from (a new API key, stored only as its digest): kept with the write instead.
   */
  answer?: { status: number; body: string };
}

/** What a guarded write created, as the key's record names it; each idempotent route rebuilds its answer from one kind. */
export const LINKED_KINDS = ['license', 'product', 'checkout', 'webhook_endpoint', 'order'] as const;
export type LinkedKind = (typeof LINKED_KINDS)[number];

const current = new AsyncLocalStorage<HeldClaim>();

/** Runs a handler with its claim (if any) visible to the store writes it makes. */
export function withClaim<T>(claim: HeldClaim | undefined, run: () => T): T {
  return claim ? current.run(claim, run) : run();
}

/** The claim of the request this code runs for, if it holds one. */
export function heldClaim(): HeldClaim | undefined {
  return current.getStore();
}

/**
 * The condition and values of the link: only a claim still in progress and not linked yet, so a
 * second object written by the same request (or late background work) never replaces the first.
 */
export function claimLink(table: SharedTables['idempotencyKeys'], claim: HeldClaim, kind: LinkedKind, id: string): { set: { objectKind: string; objectId: string }; where: SQL } {
  const where = and(eq(table.scope, claim.scope), eq(table.key, claim.key), eq(table.status, 'in_progress'), isNull(table.objectId))!;
  return { set: { objectKind: kind, objectId: id }, where };
}

/** For PostgreSQL's one-statement writes: a CTE linking the claim once `after` (a CTE) returned a row. */
export function claimLinkCte(table: SharedTables['idempotencyKeys'], kind: LinkedKind, id: string, after: string): SQL {
  const claim = heldClaim();
  if (!claim) return sql``;
  const link = claimLink(table, claim, kind, id);
  return sql`linked AS (UPDATE ${table} SET object_kind = ${kind}, object_id = ${id} WHERE ${link.where} AND EXISTS (SELECT 1 FROM ${sql.identifier(after)})),`;
}

/** Inside a SQLite transaction (synchronous): links the held claim, if any, to what it created. */
export function linkSqliteClaim(tx: Pick<SqliteWriter, 'update'>, kind: LinkedKind, id: string): void {
  const claim = heldClaim();
  if (!claim) return;
  const link = claimLink(SQLITE_PARTS.tables.idempotencyKeys, claim, kind, id);
  tx.update(liteKeys).set(link.set).where(link.where).run();
}

/** Inside a PostgreSQL transaction: links the held claim, if any, to what it created. */
export async function linkPostgresClaim(tx: Pick<PostgresWriter, 'update'>, kind: LinkedKind, id: string): Promise<void> {
  const claim = heldClaim();
  if (!claim) return;
  const link = claimLink(pgKeys, claim, kind, id);
  await tx.update(pgKeys).set(link.set).where(link.where);
}

/** The held claim's answer to keep with the write, as the store sets it: done, with the answer. */
function keptAnswer(table: SharedTables['idempotencyKeys']) {
  const claim = heldClaim();
  if (!claim?.answer) return null;
  const set = { status: 'done' as const, responseStatus: claim.answer.status, responseBody: claim.answer.body };
  return { set, where: and(eq(table.scope, claim.scope), eq(table.key, claim.key), eq(table.status, 'in_progress'))! };
}

/** Inside a SQLite transaction: keeps the held claim's answer (if the route gave one) with the write. */
export function keepSqliteAnswer(tx: Pick<SqliteWriter, 'update'>): void {
  const kept = keptAnswer(SQLITE_PARTS.tables.idempotencyKeys);
  if (kept) tx.update(liteKeys).set(kept.set).where(kept.where).run();
}

/** Inside a PostgreSQL transaction: keeps the held claim's answer (if the route gave one) with the write. */
export async function keepPostgresAnswer(tx: Pick<PostgresWriter, 'update'>): Promise<void> {
  const kept = keptAnswer(pgKeys);
  if (kept) await tx.update(pgKeys).set(kept.set).where(kept.where);
}
