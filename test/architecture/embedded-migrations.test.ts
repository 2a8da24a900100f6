import { expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { POSTGRES_MIGRATION_LIST } from '../../src/adapters/postgres/migrations/index.ts';
import { SQLITE_MIGRATIONS } from '../../src/adapters/sqlite/migrations/index.ts';
import { journalTags, migrationIndex } from '../../scripts/embed-migrations.ts';

const ADAPTERS = join(import.meta.dir, '../../src/adapters');

// A compiled binary carries only the migrations listed in each index.ts: a generated migration
// left out of the list would silently never run.
test.each([
  ['sqlite', SQLITE_MIGRATIONS],
  ['postgres', POSTGRES_MIGRATION_LIST],
])('every %s migration drizzle-kit generated is embedded, exactly as drizzle reads it from the folder', (dialect, embedded) => {
  const folder = join(ADAPTERS, dialect, 'migrations');
  const files = readdirSync(folder).filter((f) => f.endsWith('.sql'));
  expect(embedded).toHaveLength(files.length);
  expect(embedded).toEqual(readMigrationFiles({ migrationsFolder: folder }));
});

// The index is generated from drizzle-kit's journal (bun run db:generate / db:generate:pg); a hand
// edit, or a generate run without the script, is caught here.
test.each(['sqlite', 'postgres'] as const)('the %s migrations index is exactly what scripts/embed-migrations.ts writes from the journal', (dialect) => {
  const folder = join(ADAPTERS, dialect, 'migrations');
  expect(readFileSync(join(folder, 'index.ts'), 'utf8')).toBe(migrationIndex(dialect, journalTags(folder)));
});
