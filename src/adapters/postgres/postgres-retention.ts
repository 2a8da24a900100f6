import { deleteUnpaidCheckouts as deleteUnpaid } from '../drizzle/drizzle-retention.ts';
import { postgresSqlStore } from '../drizzle/sql-store.ts';
import type { PostgresDb } from './postgres-store.ts';

/** The checkout repository's share of the retention sweep (the others' are built on the shared store). */
export function deleteUnpaidCheckouts(db: PostgresDb, expiredBefore: number, limit: number): Promise<number> {
  return deleteUnpaid(postgresSqlStore(db), expiredBefore, limit);
}
