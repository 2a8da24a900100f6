import { and, eq, isNull, or, type SQL } from 'drizzle-orm';
import type * as pg from '../tables.ts';
import type * as lite from '../../sqlite/schema.ts';

/**
 * The endpoints an event goes to: its seller's enabled ones that take every type or its own.
 * `takesType` says the latter in the dialect's JSON (SQLite's json_each, PostgreSQL's jsonb containment).
 */
export function listeningEndpoints(endpoints: typeof pg.webhookEndpoints | typeof lite.webhookEndpoints, developerId: string, takesType: SQL): SQL | undefined {
  return and(eq(endpoints.developerId, developerId), eq(endpoints.enabled, true), or(isNull(endpoints.events), takesType));
}
