import { deleteUnpaidCheckouts as deleteUnpaid } from '../drizzle/drizzle-retention.ts';
import { sqliteSqlStore } from '../drizzle/sql-store.ts';
import type { SqliteDb } from './sqlite-store.ts';

/** The checkout repository's share of the retention sweep (the others' are built on the shared store). */
export function deleteUnpaidCheckouts(db: SqliteDb, expiredBefore: number, limit: number): Promise<number> {
  return deleteUnpaid(sqliteSqlStore(db), expiredBefore, limit);
}
