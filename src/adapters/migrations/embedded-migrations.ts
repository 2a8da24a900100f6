import { createHash } from 'node:crypto';
import type { MigrationMeta } from 'drizzle-orm/migrator';

export interface Journal {
  entries: { idx: number; when: number; tag: string; breakpoints: boolean }[];
}

/**
 * drizzle-kit's migrations as drizzle's migrators expect them (what `readMigrationFiles` makes from
 * the folder), built from SQL imported into the bundle: a compiled single binary carries its own
 * migrations and needs no folder beside it.
 */
export function embeddedMigrations(journal: Journal, sqlByTag: Record<string, string>): MigrationMeta[] {
  return journal.entries.map((entry) => {
    const query = sqlByTag[entry.tag];
    if (query === undefined) throw new Error(`Migration ${entry.tag} is in the journal but not embedded.`);
    return {
      sql: query.split('--> statement-breakpoint'),
      bps: entry.breakpoints,
      folderMillis: entry.when,
      hash: createHash('sha256').update(query).digest('hex'),
    };
  });
}
