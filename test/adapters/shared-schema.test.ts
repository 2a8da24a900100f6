import { describe, expect, test } from 'bun:test';
import { getTableColumns, getTableName, type Column, type Table } from 'drizzle-orm';
import { getTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as pg from '../../src/adapters/store/tables.ts';
import * as lite from '../../src/adapters/sqlite/schema.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';

/** PostgreSQL's stand-in for SQLite's rowid: reached by the shared layer only through the dialect's insertionOrder. */
const POSTGRES_ONLY = new Set(['seq']);

const TABLES = Object.keys(pg) as (keyof typeof pg)[];

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
 * SQLite's tables are derived from PostgreSQL's declaration (src/adapters/store/schema-kit.ts), and the
 * shared query layer sees them through PostgreSQL's types (src/adapters/store/sql-store.ts): that
 * holds only while the derivation keeps every column as declared.
 */
describe('the SQLite tables derived from the one declaration', () => {
  test('every PostgreSQL table has its SQLite table, and no other', () => {
    expect(Object.keys(lite).sort()).toEqual([...TABLES].sort());
  });

  test.each(TABLES)('%s has the same columns in both dialects', (name) => {
    expect(shape(lite[name] as Table)).toEqual(shape(pg[name] as Table));
  });

  test('PostgreSQL keeps its insertion order where SQLite lists by rowid', () => {
    expect(Object.keys(getTableColumns(pg.savedCards))).toContain('seq');
    expect(Object.keys(getTableColumns(lite.savedCards))).not.toContain('seq');
  });
});

/** Columns in name order: a column added by a later migration comes last in the file, not in the declaration. */
const byName = <C extends { name: string }>(columns: C[]) => columns.sort((a, b) => a.name.localeCompare(b.name));

/** A table as a freshly migrated SQLite file holds it: its columns and its indexes by name. */
function migrated(sqlite: ReturnType<typeof openSqliteStore>['sqlite'], table: string) {
  const columns = sqlite.query<{ name: string; type: string; notnull: number; pk: number }, []>(`PRAGMA table_info(${table})`).all();
  const indexes = sqlite.query<{ name: string }, []>(`PRAGMA index_list(${table})`).all();
  return {
    columns: byName(columns.map((c) => ({ name: c.name, type: c.type.toLowerCase(), notNull: c.notnull === 1 || c.pk > 0, primary: c.pk > 0 }))),
    indexes: indexes.map((i) => i.name).filter((name) => !name.startsWith('sqlite_autoindex_')).sort(),
  };
}

/** The same, as the derived table declares it (a unique column is an index of its own in SQLite). */
function declared(table: SQLiteTable) {
  const config = getTableConfig(table);
  const keyColumns = new Set(config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name)));
  return {
    columns: byName(
      config.columns.map((c) => ({ name: c.name, type: c.getSQLType(), notNull: c.notNull || keyColumns.has(c.name), primary: c.primary || keyColumns.has(c.name) })),
    ),
    indexes: [...config.indexes.map((i) => i.config.name), ...config.columns.filter((c) => c.isUnique).map((c) => c.uniqueName!)].sort(),
  };
}

describe('the derived SQLite tables against what the migrations built', () => {
  const { sqlite } = openSqliteStore(':memory:');
  const liteTables: SQLiteTable[] = Object.values(lite);

  test('the migrations built every declared table, and no other', () => {
    const built = sqlite
      .query<{ name: string }, []>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'`)
      .all()
      .map((r) => r.name);
    expect(built.sort()).toEqual(liteTables.map((t) => getTableName(t)).sort());
  });

  test.each(liteTables.map((t) => [getTableName(t), t] as const))('%s has the migrated columns and indexes', (name, table) => {
    expect(declared(table)).toEqual(migrated(sqlite, name));
  });
});
