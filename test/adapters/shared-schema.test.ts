import { describe, expect, test } from 'bun:test';
import { getTableColumns, getTableName, type Column, type Table } from 'drizzle-orm';
import { SHARED_TABLES } from '../../src/adapters/store/sql-store.ts';
import * as pg from '../../src/adapters/postgres/schema.ts';
import * as lite from '../../src/adapters/sqlite/schema.ts';

/** PostgreSQL's stand-in for SQLite's rowid: reached by the shared layer only through the dialect's insertionOrder. */
const POSTGRES_ONLY = new Set(['seq']);

/** What the shared repositories rely on a column being: its SQL name, the value it maps to, nullability, key, vocabulary. */
function shape(table: Table) {
  const columns = Object.entries(getTableColumns(table) as Record<string, Column>).filter(([key]) => !POSTGRES_ONLY.has(key));
  return {
    name: getTableName(table),
    columns: Object.fromEntries(
      columns.map(([key, c]) => [key, { name: c.name, dataType: c.dataType, notNull: c.notNull, primary: c.primary, enumValues: c.enumValues ?? null }]),
    ),
  };
}

/**
 * The shared query layer sees SQLite's tables through PostgreSQL's types (src/adapters/store/sql-store.ts):
 * that holds only while the two schema files declare the same columns for the tables it uses.
 */
describe('the tables the shared drizzle repositories use', () => {
  test.each([...SHARED_TABLES])('%s declares the same columns in both schema files', (name) => {
    expect(shape(lite[name] as Table)).toEqual(shape(pg[name] as Table));
  });

  test('PostgreSQL keeps its insertion order where SQLite lists by rowid', () => {
    expect(Object.keys(getTableColumns(pg.savedCards))).toContain('seq');
    expect(Object.keys(getTableColumns(lite.savedCards))).not.toContain('seq');
  });
});
