import type { MigrationMeta } from 'drizzle-orm/migrator';
import { SchemaTooNewError, unknownMigrations } from '../migrations/schema-version.ts';

export interface SchemaGuard {
  stop(): void;
}

/**
 * While instances share a database, a newer release may migrate it under a running one. Every
 * `everyMs` this reads the applied migrations (a few rows) and, the first time one is unknown to
 * this code, calls `onTooNew` once and checks no more. A failed read (the database away) is let
 * pass: the next round tries again.
 */
export function startSchemaGuard(
  applied: () => Promise<number[]>,
  known: readonly MigrationMeta[],
  onTooNew: (error: SchemaTooNewError) => void,
  everyMs: number,
): SchemaGuard {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const round = async () => {
    let unknown: number[] = [];
    try {
      unknown = unknownMigrations(await applied(), known);
    } catch {}
    if (stopped) return;
    if (unknown.length > 0) {
      stopped = true;
      onTooNew(new SchemaTooNewError(unknown));
      return;
    }
    timer = setTimeout(round, everyMs);
    timer.unref?.();
  };
  timer = setTimeout(round, everyMs);
  timer.unref?.();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
