import { and, desc, eq, gt, gte, isNotNull, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { LicenseSubject } from '../../domain/events.ts';
import type { LicenseStatus } from '../../domain/license.ts';
import type { LicenseListQuery, LicensePage } from '../../ports/license-repository.ts';
import { firstMachine } from './postgres-activations.ts';
import type { PostgresDb } from './postgres-store.ts';
import { customers, licenses } from './schema.ts';

/** A license as the License type has it (the repository's reads share it). */
export const licenseColumns = {
  id: licenses.id,
  developerId: licenses.developerId,
  productId: licenses.productId,
  customerId: licenses.customerId,
  storedStatus: licenses.status,
  features: licenses.features,
  issuedAt: licenses.issuedAt,
  expiresAt: licenses.expiresAt,
  machineFingerprint: firstMachine,
  maxMachines: licenses.maxMachines,
  licenseKey: licenses.licenseKey,
  trial: licenses.trial,
  subscriptionId: licenses.subscriptionId,
};

const columns = { ...licenseColumns, customerEmail: customers.email };

/** A license with its customer's e-mail, as its events carry it; `lock` takes the license row for the transaction. */
export async function licenseSubject(db: Pick<PostgresDb, 'select'>, id: string, lock = false): Promise<LicenseSubject | null> {
  const query = db.select(columns).from(licenses).innerJoin(customers, eq(customers.id, licenses.customerId)).where(eq(licenses.id, id));
  const [row] = lock ? await query.for('update', { of: licenses }) : await query;
  return row ?? null;
}

// Ids compare byte-wise (COLLATE "C", as the indexes are built), as in SQLite.
const ID = sql`${licenses.id} COLLATE "C"`;

/** The status as a condition on stored columns: revoked/active walk (…, status, issued_at, id), expired is a range of (…, status, expires_at, id). */
function statusCondition(status: NonNullable<LicenseListQuery['status']>): SQL | undefined {
  return STATUS_CONDITIONS[status.is](status.now);
}

/** One condition per status validation can report: a status without one fails the type check. */
const STATUS_CONDITIONS: Record<LicenseStatus, (now: number) => SQL | undefined> = {
  active: (now) => and(eq(licenses.status, 'active'), or(isNull(licenses.expiresAt), gt(licenses.expiresAt, now))),
  expired: (now) => and(eq(licenses.status, 'active'), isNotNull(licenses.expiresAt), lte(licenses.expiresAt, now)),
  revoked: () => eq(licenses.status, 'revoked'),
};

/** Most recently expired first when the filter is `expired` (index (developer_id, status, expires_at, id)); else newest first. */
const byExpiry = (query: LicenseListQuery): boolean => query.status?.is === 'expired';

/**
 * Keyset bounds. The cursor becomes one inclusive upper bound on the leading time column (the tighter
 * of it and createdBefore), so the index range starts at the cursor instead of being walked down to it;
 * within the cursor's own millisecond the id decides. By expiry, the bound is min(now, cursor's expiry).
 */
function bounds(query: LicenseListQuery): SQL | undefined {
  const { after } = query;
  const expiry = byExpiry(query);
  const before = query.issuedBefore === undefined ? undefined : query.issuedBefore - 1;
  const upper = after && !expiry ? Math.min(after.issuedAt, before ?? Infinity) : before;
  const expiredAfter = expiry && after && after.expiresAt !== null && after.expiresAt !== undefined ? after.expiresAt : undefined;
  return and(
    query.issuedFrom === undefined ? undefined : gte(licenses.issuedAt, query.issuedFrom),
    upper === undefined ? undefined : lte(licenses.issuedAt, upper),
    after && !expiry ? or(lt(licenses.issuedAt, after.issuedAt), sql`${ID} < ${after.id}`) : undefined,
    expiredAfter === undefined || !after ? undefined : or(lt(licenses.expiresAt, expiredAfter), sql`${ID} < ${after.id}`),
  );
}

/** The status condition; listed by expiry after a cursor, `expired` ends at the cursor's expiry (a cursor that never expires: at now). */
function statusOf(query: LicenseListQuery): SQL | undefined {
  const { status, after } = query;
  if (status === undefined) return undefined;
  const cursorExpiry = byExpiry(query) ? (after?.expiresAt ?? Infinity) : Infinity;
  return statusCondition({ is: status.is, now: Math.min(status.now, cursorExpiry) });
}

export function licenseListFilter(developerId: string, query: LicenseListQuery): SQL | undefined {
  return and(
    eq(licenses.developerId, developerId),
    query.productId === undefined ? undefined : eq(licenses.productId, query.productId),
    query.customerEmail === undefined ? undefined : eq(customers.email, query.customerEmail),
    statusOf(query),
    query.trial === undefined ? undefined : eq(licenses.trial, query.trial),
    bounds(query),
  );
}

export function postgresLicenseListQuery(db: PostgresDb, developerId: string, query: LicenseListQuery) {
  return db
    .select(columns)
    .from(licenses)
    .innerJoin(customers, eq(customers.id, licenses.customerId))
    .where(licenseListFilter(developerId, query))
    .orderBy(...(byExpiry(query) ? [desc(licenses.expiresAt), desc(ID)] : [desc(licenses.issuedAt), desc(ID)]))
    .limit(query.limit + 1);
}

/** A seller's licenses, newest first (issued_at, id descending; expired ones by expiry): keyset pages, stable under inserts. */
export async function listPostgresLicenses(db: PostgresDb, developerId: string, query: LicenseListQuery): Promise<LicensePage> {
  const rows = await postgresLicenseListQuery(db, developerId, query);
  return { data: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
}
