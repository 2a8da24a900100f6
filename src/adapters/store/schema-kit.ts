import { getTableColumns, is, SQL, sql, StringChunk, type ColumnBaseConfig, type ColumnDataType } from 'drizzle-orm';
import { bigint, getTableConfig, type Index, type IndexBuilder, type IndexedColumn, type PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  index,
  integer,
  primaryKey,
  type SQLiteColumn,
  type SQLiteColumnBuilderBase,
  type SQLiteTableExtraConfigValue,
  sqliteTable,
  type SQLiteTableWithColumns,
  text,
  uniqueIndex,
  type UpdateDeleteAction,
} from 'drizzle-orm/sqlite-core';

/**
 * The tables are declared once, in PostgreSQL's terms (src/adapters/store/tables.ts), and SQLite's
 * are derived from them here (src/adapters/sqlite/schema.ts). The markers below say what the two
 * stores keep differently; everything else maps column for column: text to text, integer and bigint
 * to integer, boolean to integer in boolean mode, jsonb to text in JSON mode, an identity key to an
 * autoincrement key.
 */

/** Unix milliseconds: bigint on PostgreSQL, integer on SQLite, a number in both. */
export const millis = (name: string) => bigint(name, { mode: 'number' });

/** Insertion order, the tie-break of rows made in the same millisecond: SQLite has its rowid, so the column is PostgreSQL's only. */
export const insertionOrder = () => bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull();

/** A numbered key: PostgreSQL's identity, SQLite's autoincrement. */
export const serialId = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();

/** Index expressions that order a column bytewise, by the column's SQL name. */
const byteOrdered = new WeakMap<SQL, string>();

/**
 * A column in an index, ordered bytewise (COLLATE "C") on PostgreSQL whatever the database default;
 * SQLite compares text bytewise already, so its index holds the plain column. A name is written as
 * is, a column quoted: both forms stay, because the migrations' snapshots record the index's text.
 */
export function byteOrder(column: PgColumn | string): SQL {
  const expression = typeof column === 'string' ? sql.raw(`${column} COLLATE "C"`) : sql`${column} COLLATE "C"`;
  byteOrdered.set(expression, typeof column === 'string' ? column : column.name);
  return expression;
}

/** An id column in an index, ordered bytewise. */
export const ID = byteOrder('id');

/** The names of PostgreSQL-only indexes (a table's indexes are built anew on each read of its config). */
const postgresOnlyIndexes = new Set<string>();

/** An index SQLite needs not: e.g. a uniqueness its single writer gives for free. */
export function postgresOnly<T extends IndexBuilder>(builder: T): T {
  // The builder keeps its config to itself; the index built from it shows the same name.
  postgresOnlyIndexes.add((builder as unknown as Index).config.name!);
  return builder;
}

type PgConfig = ColumnBaseConfig<ColumnDataType, string> & { identity?: unknown };

/** An identity that is not the key: the insertion order above, which SQLite's rowid gives. */
type PostgresOnlyColumn<C extends PgConfig> = C['identity'] extends 'always' | 'byDefault' ? (C['isPrimaryKey'] extends true ? false : true) : false;

interface SqliteColumnTypes {
  PgText: 'SQLiteText';
  PgInteger: 'SQLiteInteger';
  PgBigInt53: 'SQLiteInteger';
  PgBoolean: 'SQLiteBoolean';
  PgJsonb: 'SQLiteTextJson';
}

/** A PostgreSQL column's config as SQLite's: the same values in and out; an identity key becomes a key with a default. */
type SqliteConfig<C extends PgConfig> = {
  name: C['name'];
  tableName: C['tableName'];
  dataType: C['dataType'];
  columnType: SqliteColumnTypes[C['columnType'] & keyof SqliteColumnTypes];
  data: C['data'];
  driverParam: C['dataType'] extends 'string' | 'json' ? string : number;
  notNull: C['notNull'];
  hasDefault: C['identity'] extends 'always' | 'byDefault' ? true : C['hasDefault'];
  isPrimaryKey: C['isPrimaryKey'];
  isAutoincrement: C['isAutoincrement'];
  hasRuntimeDefault: C['hasRuntimeDefault'];
  enumValues: C['enumValues'];
  baseColumn: never;
  identity: undefined;
  generated: undefined;
};

type PgColumns<T extends PgTable> = T['_']['columns'];

/** The SQLite table derived from a PostgreSQL one, typed as sqliteTable would have typed its own declaration. */
export type SqliteTableOf<T extends PgTable> = SQLiteTableWithColumns<{
  name: T['_']['name'];
  schema: undefined;
  dialect: 'sqlite';
  columns: {
    [K in keyof PgColumns<T> as PostgresOnlyColumn<PgColumns<T>[K]['_']> extends true ? never : K]: SQLiteColumn<SqliteConfig<PgColumns<T>[K]['_']>>;
  };
}>;

/** The SQLite tables of a schema module's PostgreSQL tables, under the same names. */
export type SqliteSchemaOf<S> = { [K in keyof S as S[K] extends PgTable ? K : never]: S[K] extends PgTable ? SqliteTableOf<S[K]> : never };

/** Every table of `schema` (a module's exports) as SQLite's, with the same names, columns, keys and indexes. */
export function sqliteSchemaOf<S extends Record<string, unknown>>(schema: S): SqliteSchemaOf<S> {
  const derived = new Map<PgTable, Record<string, SQLiteColumn>>();
  const columnOf = (pgColumn: PgColumn) => () => byName(derived.get(pgColumn.table)!, pgColumn.name);
  const entries = Object.entries(schema).flatMap(([key, table]) => {
    if (!is(table, PgTable)) return [];
    const lite = sqliteTableOf(table, columnOf);
    derived.set(table, getTableColumns(lite) as Record<string, SQLiteColumn>);
    return [[key, lite]];
  });
  // One cast: test/adapters/shared-schema.test.ts holds the built tables to PostgreSQL's columns and to the migrated SQLite file.
  return Object.fromEntries(entries) as SqliteSchemaOf<S>;
}

type ColumnLookup = (pgColumn: PgColumn) => () => SQLiteColumn;

function byName<C extends { name: string }>(columns: Record<string, C>, name: string): C {
  const column = Object.values(columns).find((c) => c.name === name);
  if (!column) throw new Error(`no column ${name}`);
  return column;
}

function sqliteTableOf(table: PgTable, columnOf: ColumnLookup) {
  const config = getTableConfig(table);
  if (config.checks.length + config.uniqueConstraints.length + config.policies.length > 0) {
    throw new Error(`${config.name}: checks, unique constraints and policies have no SQLite form here yet`);
  }
  const references = new Map(config.foreignKeys.map((fk) => [fk.reference().columns[0]!, fk] as const));
  const columns = Object.fromEntries(
    Object.entries(getTableColumns(table))
      // An identity that is not the key is insertionOrder: SQLite has its rowid (PostgresOnlyColumn, for the types).
      .filter(([, column]) => !(column.generatedIdentity && !column.primary))
      .map(([key, column]) => {
        const fk = references.get(column);
        const builder = sqliteColumn(column);
        if (fk) builder.references(columnOf(fk.reference().foreignColumns[0]!), { onUpdate: fk.onUpdate, onDelete: fk.onDelete });
        return [key, builder];
      }),
  );
  return sqliteTable(config.name, columns, (self) => {
    const t = self as Record<string, SQLiteColumn>;
    const indexes = config.indexes
      .filter((i) => !postgresOnlyIndexes.has(i.config.name!))
      .map((i): SQLiteTableExtraConfigValue => {
        const [first, ...rest] = i.config.columns.map((c) =>
          byName(t, is(c, SQL) ? (byteOrdered.get(c) ?? unsupported(config.name, i.config.name)) : (c as IndexedColumn).name!),
        );
        const built = (i.config.unique ? uniqueIndex : index)(i.config.name!).on(first!, ...rest);
        const where = i.config.where;
        // Plain SQL text reads the same on both; a PostgreSQL column in it would name PostgreSQL's table.
        if (where && !where.queryChunks.every((chunk) => is(chunk, StringChunk))) unsupported(config.name, i.config.name);
        return where ? built.where(where) : built;
      });
    const keys = config.primaryKeys.map((pk) => {
      const [first, ...rest] = pk.columns.map((c) => byName(t, c.name));
      return primaryKey({ name: pk.name, columns: [first!, ...rest] });
    });
    return [...indexes, ...keys];
  });
}

/** An index expression or condition other than byteOrder and plain SQL text: mark the index postgresOnly or teach the kit. */
function unsupported(table: string, index: string | undefined): never {
  throw new Error(`${table}.${index}: this index has no SQLite form here yet`);
}

/** What the derivation calls on a SQLite column builder, whatever its kind (each call changes the builder itself). */
interface ColumnBuilder extends SQLiteColumnBuilderBase {
  primaryKey(config?: { autoIncrement?: boolean }): unknown;
  notNull(): unknown;
  default(value: unknown): unknown;
  unique(name?: string): unknown;
  references(ref: () => SQLiteColumn, actions?: { onUpdate?: UpdateDeleteAction; onDelete?: UpdateDeleteAction }): unknown;
}

/** The SQLite column of the same name, values and constraints; its foreign key is added by the caller. */
function sqliteColumn(column: PgColumn): ColumnBuilder {
  const builder: ColumnBuilder = sqliteColumnType(column);
  if (column.primary) builder.primaryKey(column.generatedIdentity ? { autoIncrement: true } : undefined);
  if (column.notNull) builder.notNull();
  if (column.default !== undefined) builder.default(column.default);
  if (column.isUnique) builder.unique(column.uniqueName);
  return builder;
}

function sqliteColumnType(column: PgColumn) {
  switch (column.columnType) {
    case 'PgText':
      return text(column.name, { enum: column.enumValues as [string, ...string[]] | undefined });
    case 'PgInteger':
    case 'PgBigInt53':
      return integer(column.name);
    case 'PgBoolean':
      return integer(column.name, { mode: 'boolean' });
    case 'PgJsonb':
      return text(column.name, { mode: 'json' });
    default:
      throw new Error(`${column.name}: ${column.columnType} has no SQLite form here yet`);
  }
}
