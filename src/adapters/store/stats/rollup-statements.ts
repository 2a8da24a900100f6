import { sql, type SQL } from 'drizzle-orm';
import type { RollupDelta } from '../../../domain/stats-rollups.ts';
import type { SqlStore } from '../sql-store.ts';

/**
 * One rollup delta (src/domain/stats-rollups.ts) as the statement that adds it, the same on both
 * dialects: `INSERT … ON CONFLICT (key) DO UPDATE SET n = n + excluded.n`. Concurrent writers of
 * one rollup row queue on its lock and each adds to the row as it is then, so none is lost.
 * With `source` (a CTE of the same statement) the row is added once per row of it: none when the
 * change it goes with wrote nothing.
 */
export function rollupStatement(store: Pick<SqlStore, 'tables' | 'dialect'>, delta: RollupDelta, source?: SQL): SQL {
  const table = store.tables[delta.table];
  const column = (field: string) => sql.identifier((table as unknown as Record<string, { name: string }>)[field]!.name);
  const values = Object.entries({ ...delta.key, ...delta.add }).map(([field, value]) =>
    typeof value === 'string' ? store.dialect.bound(value, 'text') : store.dialect.bound(value, 'bigint'),
  );
  const keys = sql.join(Object.keys(delta.key).map(column), sql`, `);
  const added = sql.join(
    Object.keys(delta.add).map((field) => sql`${column(field)} = ${table}.${column(field)} + excluded.${column(field)}`),
    sql`, `,
  );
  const columns = sql.join([...Object.keys(delta.key), ...Object.keys(delta.add)].map(column), sql`, `);
  // SQLite reads `ON CONFLICT` after a bare SELECT … FROM as a join's ON: the WHERE ends the SELECT.
  return sql`INSERT INTO ${table} (${columns}) SELECT ${sql.join(values, sql`, `)}${source ? sql` FROM ${source}` : sql``} WHERE true ON CONFLICT (${keys}) DO UPDATE SET ${added}`;
}
