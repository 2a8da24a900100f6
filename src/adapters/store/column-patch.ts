import { and, eq, getTableColumns, isNull, type Column, type SQL, type Table } from 'drizzle-orm';

/**
 * A repository's typed patch as drizzle `.set()` values, and its compare-and-swap as a condition,
 * on either SQL store: each field goes to the table's column of the same name unless `renamed`
 * says otherwise (a domain's storedStatus is the column `status`). Undefined fields are left out,
 * so a field added to the domain type and the tables is patchable with no code here.
 */
export function columnPatch(table: Table, renamed: Record<string, string> = {}) {
  const columns: Record<string, Column> = getTableColumns(table);
  const named = (patch: object) =>
    Object.entries(patch)
      .filter(([, value]) => value !== undefined)
      .map(([field, value]) => {
        const key = renamed[field] ?? field;
        if (!columns[key]) throw new Error(`No column for the field ${field}.`);
        return { key, column: columns[key], value: value as unknown };
      });
  return {
    /** The `.set()` values; empty when the patch names nothing. */
    set: (patch: object): Record<string, unknown> => Object.fromEntries(named(patch).map(({ key, value }) => [key, value])),
    /** Every expected value as a condition (null as IS NULL); undefined when nothing is expected. */
    where: (expect: object = {}): SQL | undefined => and(...named(expect).map(({ column, value }) => (value === null ? isNull(column) : eq(column, value)))),
  };
}
