import type { MigrationMeta } from 'drizzle-orm/migrator';

/**
 * The store was migrated by a newer release: it records migrations this code does not know. Old
 * code on a newer schema would keep writing through columns the new one has moved away from (a
 * rolling upgrade's old instance), so it neither starts nor keeps serving writes.
 */
export class SchemaTooNewError extends Error {
  constructor(readonly unknown: number[]) {
    super(
      `The database holds ${unknown.length} migration${unknown.length === 1 ? '' : 's'} this release does not know ` +
        `(the newest applied ${new Date(Math.max(...unknown)).toISOString()}): a newer release has migrated it; run that release, not this one.`,
    );
    this.name = 'SchemaTooNewError';
  }
}

/**
 * The applied migrations (drizzle's `__drizzle_migrations.created_at`, the journal's `when`) that
 * are not in `known`. Compared by that stamp, not by hash: the hash of a migration already applied
 * would change with a comment, while its stamp never does.
 */
export function unknownMigrations(applied: Iterable<number>, known: readonly MigrationMeta[]): number[] {
  const stamps = new Set(known.map((m) => m.folderMillis));
  return [...applied].filter((createdAt) => !stamps.has(createdAt));
}

/** Throws SchemaTooNewError when any applied migration is not in `known`. */
export function assertSchemaKnown(applied: Iterable<number>, known: readonly MigrationMeta[]): void {
  const unknown = unknownMigrations(applied, known);
  if (unknown.length > 0) throw new SchemaTooNewError(unknown);
}
