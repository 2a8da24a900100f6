import type { Database } from 'bun:sqlite';

/** Every row of every table of the store: what "no state change" compares. */
export type Snapshot = Map<string, Record<string, unknown>[]>;

export interface Ignored {
  tables?: string[];
  columns?: Record<string, string[]>;
}

/**
 * The only writes a refused call may make are the ones CONTRACT.md counts: a wrong code spends one
 * of its challenge's 5 tries and counts toward the 20 failures that lock a customer's logins.
 */
const COUNTED_FAILURES = new Set(['otp_invalid', 'otp_attempts_exceeded', 'otp_expired', 'rate_limited']);
const CODE_CHECKING_ROUTES = new Set(['POST /auth/login/verify', 'POST /purchase/confirm', 'POST /customer/phone/verify']);

export function snapshot(sqlite: Database): Snapshot {
  const tables = sqlite.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' ORDER BY name").values();
  return new Map((tables as [string][]).map(([table]) => [table, sqlite.query(`SELECT * FROM "${table}" ORDER BY rowid`).all() as Record<string, unknown>[]]));
}

/** What a refused call to this route, with this error code, is allowed to have written. */
export function allowedWrites(route: string, code: string | undefined): Ignored {
  if (CODE_CHECKING_ROUTES.has(route) && code && COUNTED_FAILURES.has(code)) return { tables: ['login_failures'], columns: { otp_challenges: ['attempts'] } };
  return {};
}

/** The tables whose rows differ between two snapshots, apart from what is ignored. */
export function changedTables(before: Snapshot, after: Snapshot, ignored: Ignored = {}): string[] {
  const text = (table: string, rows: Record<string, unknown>[] | undefined) => {
    const skipped = ignored.columns?.[table] ?? [];
    return JSON.stringify((rows ?? []).map((row) => Object.entries(row).filter(([column]) => !skipped.includes(column))));
  };
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => !ignored.tables?.includes(name) && text(name, before.get(name)) !== text(name, after.get(name)));
}
