import { and, asc, desc, eq, gt, gte, isNotNull, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Activation } from '../../../domain/activation.ts';
import type { License, LicenseStatus } from '../../../domain/license.ts';
import type * as port from '../../../ports/license-repository.ts';
import { deleteOldDeactivations } from '../retention.ts';
import { licenseColumns } from './license-rows.ts';
import { oneOrNull, type SqlStore } from '../sql-store.ts';

/** A dialect's activations of licenses, each change in its own transaction (bun:sqlite's synchronous). */
export interface LicenseMachines {
  activate(licenseId: string, input: port.NewActivation): port.ActivateOutcome | Promise<port.ActivateOutcome>;
  list(licenseId: string): Activation[] | Promise<Activation[]>;
  touchSeen(licenseId: string, machineFingerprint: string, at: number): void | Promise<void>;
  touchSeenMany(seen: readonly port.SeenMachine[]): void | Promise<void>;
  deactivate(licenseId: string, which: port.ActivationSelector, quota?: port.DeactivationQuota): port.DeactivateOutcome | Promise<port.DeactivateOutcome>;
  removeAll(licenseId: string): void | Promise<void>;
}

/** What each dialect's license repository writes itself: the changes that run in its transactions, and the hot path's prepared reads. */
type DialectPart = 'create' | 'update' | 'reissue' | 'findStateByKeyHash' | 'findStateById';

/**
 * What the two license repositories share: the reads outside transactions, and the activations,
 * handed to the dialect's machines. Each dialect's repository adds the rest.
 */
export abstract class DrizzleLicenseRepository implements Omit<port.LicenseRepository, DialectPart> {
  private readonly columns;

  constructor(
    protected readonly store: SqlStore,
    private readonly machines: LicenseMachines,
  ) {
    this.columns = licenseColumns(store.tables.licenses, store.dialect.firstMachine);
  }

  async findById(id: string): Promise<License | null> {
    return this.findOne(eq(this.store.tables.licenses.id, id));
  }

  async findByCheckoutSession(checkoutSessionId: string): Promise<License | null> {
    return this.findOne(eq(this.store.tables.licenses.checkoutSessionId, checkoutSessionId));
  }

  async findByPurchase(purchaseId: string): Promise<License | null> {
    return this.findOne(eq(this.store.tables.licenses.purchaseId, purchaseId));
  }

  async listByCustomer(customerId: string): Promise<License[]> {
    const { licenses } = this.store.tables;
    return this.store.db
      .select(this.columns)
      .from(licenses)
      .where(eq(licenses.customerId, customerId))
      .orderBy(asc(licenses.issuedAt), asc(this.store.dialect.byteOrder(licenses.id)));
  }

  /** A seller's licenses, newest first (issued_at, id descending; expired ones by expiry): keyset pages, stable under inserts. */
  async listByDeveloper(developerId: string, query: port.LicenseListQuery): Promise<port.LicensePage> {
    const rows = await licenseListQuery(this.store, developerId, query);
    return { data: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
  }

  async activate(licenseId: string, activation: port.NewActivation): Promise<port.ActivateOutcome> {
    return this.machines.activate(licenseId, activation);
  }

  async listActivations(licenseId: string): Promise<Activation[]> {
    return this.machines.list(licenseId);
  }

  async touchActivation(licenseId: string, machineFingerprint: string, at: number): Promise<void> {
    await this.machines.touchSeen(licenseId, machineFingerprint, at);
  }

  async touchActivations(seen: readonly port.SeenMachine[]): Promise<void> {
    if (seen.length > 0) await this.machines.touchSeenMany(seen);
  }

  async deactivate(licenseId: string, which: port.ActivationSelector, quota?: port.DeactivationQuota): Promise<port.DeactivateOutcome> {
    return this.machines.deactivate(licenseId, which, quota);
  }

  async unbind(id: string): Promise<void> {
    await this.machines.removeAll(id);
  }

  async deleteDeactivationsBefore(before: number, limit: number): Promise<number> {
    return deleteOldDeactivations(this.store, before, limit);
  }

  private findOne(where: SQL): Promise<License | null> {
    return oneOrNull(this.store.db.select(this.columns).from(this.store.tables.licenses).where(where));
  }
}

/** A page of a seller's license list, one row more than the limit (also read by the query-plan tests). */
export function licenseListQuery(store: SqlStore, developerId: string, query: port.LicenseListQuery) {
  const { licenses, customers } = store.tables;
  const id = store.dialect.byteOrder(licenses.id);
  // With an e-mail, the plan starts at the customer (unique e-mail index, then licenses_customer).
  return store.db
    .select({ ...licenseColumns(licenses, store.dialect.firstMachine), customerEmail: customers.email })
    .from(licenses)
    .innerJoin(customers, eq(customers.id, licenses.customerId))
    .where(licenseListFilter(store, developerId, query))
    .orderBy(...(byExpiry(query) ? [desc(licenses.expiresAt), desc(id)] : [desc(licenses.issuedAt), desc(id)]))
    .limit(query.limit + 1);
}

/** Most recently expired first when the filter is `expired` (index (developer_id, status, expires_at, id)); else newest first. */
const byExpiry = (query: port.LicenseListQuery): boolean => query.status?.is === 'expired';

function licenseListFilter(store: SqlStore, developerId: string, query: port.LicenseListQuery): SQL | undefined {
  const { licenses, customers } = store.tables;
  return and(
    eq(licenses.developerId, developerId),
    query.productId === undefined ? undefined : eq(licenses.productId, query.productId),
    query.customerEmail === undefined ? undefined : eq(customers.email, query.customerEmail),
    statusOf(store, query),
    query.trial === undefined ? undefined : eq(licenses.trial, query.trial),
    bounds(store, query),
  );
}

/**
 * Keyset bounds. The cursor becomes one inclusive upper bound on the leading time column (the tighter
 * of it and createdBefore), so the index range starts at the cursor instead of being walked down to it;
 * within the cursor's own millisecond the id decides (byte-wise, as the indexes are built). By expiry,
 * the bound is min(now, cursor's expiry).
 */
function bounds({ tables: { licenses }, dialect }: SqlStore, query: port.LicenseListQuery): SQL | undefined {
  const { after } = query;
  const expiry = byExpiry(query);
  const before = query.issuedBefore === undefined ? undefined : query.issuedBefore - 1;
  const upper = after && !expiry ? Math.min(after.issuedAt, before ?? Infinity) : before;
  const expiredAfter = expiry && after && after.expiresAt !== null && after.expiresAt !== undefined ? after.expiresAt : undefined;
  const idBefore = (cursorId: string) => sql`${dialect.byteOrder(licenses.id)} < ${cursorId}`;
  return and(
    query.issuedFrom === undefined ? undefined : gte(licenses.issuedAt, query.issuedFrom),
    upper === undefined ? undefined : lte(licenses.issuedAt, upper),
    after && !expiry ? or(lt(licenses.issuedAt, after.issuedAt), idBefore(after.id)) : undefined,
    expiredAfter === undefined || !after ? undefined : or(lt(licenses.expiresAt, expiredAfter), idBefore(after.id)),
  );
}

/**
 * The status as a condition on stored columns: `revoked` and `active` walk (developer_id, status,
 * issued_at, id); `expired` is the range status = 'active' AND expires_at <= now of (developer_id,
 * status, expires_at, id). Listed by expiry after a cursor, `expired` ends at the cursor's expiry
 * (a cursor that never expires: at now).
 */
function statusOf({ tables: { licenses } }: SqlStore, query: port.LicenseListQuery): SQL | undefined {
  const { status, after } = query;
  if (status === undefined) return undefined;
  const now = Math.min(status.now, byExpiry(query) ? (after?.expiresAt ?? Infinity) : Infinity);
  // One condition per status validation can report: a status without one fails the type check.
  const conditions: Record<LicenseStatus, () => SQL | undefined> = {
    active: () => and(eq(licenses.status, 'active'), or(isNull(licenses.expiresAt), gt(licenses.expiresAt, now))),
    expired: () => and(eq(licenses.status, 'active'), isNotNull(licenses.expiresAt), lte(licenses.expiresAt, now)),
    revoked: () => eq(licenses.status, 'revoked'),
  };
  return conditions[status.is]();
}
