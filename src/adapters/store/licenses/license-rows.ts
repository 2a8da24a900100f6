import { and, eq, getTableColumns, isNull, sql, type Column, type SQL } from 'drizzle-orm';
import { ConflictError } from '../../../domain/errors.ts';
import type { LicenseSubject } from '../../../domain/events.ts';
import type { License } from '../../../domain/license.ts';
import type { LicenseReissue, LicenseState } from '../../../ports/license-repository.ts';
import { columnPatch } from '../column-patch.ts';
import type * as pg from '../tables.ts';
import type * as lite from '../../sqlite/schema.ts';
import type { SqlDialect } from '../sql-store.ts';

/** Either dialect's licenses table: the column lists below are built for the one a query runs on. */
type LicenseTable = typeof pg.licenses | typeof lite.licenses;
type CustomerTable = typeof pg.customers | typeof lite.customers;

/** What paid for a new license: its checkout session or its terminal purchase (neither: granted). */
export type LicenseOrigin = { checkoutSessionId?: string; purchaseId?: string };
type Columns<T extends LicenseTable> = T['_']['columns'];

/** A new license's row: its stored status, digest and origin; the machine is derived, never stored. */
export function licenseRow(license: License, keyHash: string, origin: LicenseOrigin = {}) {
  const { storedStatus, machineFingerprint: _derived, ...rest } = license;
  return { ...rest, status: storedStatus, keyHash, checkoutSessionId: origin.checkoutSessionId ?? null, purchaseId: origin.purchaseId ?? null };
}

/** Columns the License type does not carry: storage (digest, origin, announcement) and the pre-activations binding. */
const STORAGE_ONLY = ['keyHash', 'checkoutSessionId', 'purchaseId', 'expiryAnnouncedAt', 'trialEndingAnnouncedAt', 'boundAt'] as const;
type StorageOnly = (typeof STORAGE_ONLY)[number];

export type LicenseColumns<T extends LicenseTable> = {
  [K in Exclude<keyof Columns<T>, StorageOnly | 'status' | 'machineFingerprint'>]: Columns<T>[K];
} & { storedStatus: Columns<T>['status']; machineFingerprint: SQL<string | null> };

/**
 * A license as the License type has it, derived from the table in its column order: every column
 * but the storage-only ones, `status` read as storedStatus, and the machine of the oldest activation
 * in place of the legacy binding column. A column added to the table declaration is read with no edit here.
 * The cast gives back the keys' types Object.fromEntries drops, as LicenseColumns spells them; the
 * license contracts compare whole licenses, so a column read under the wrong name fails them.
 */
export function licenseColumns<T extends LicenseTable>(licenses: T, firstMachine: SQL<string | null>): LicenseColumns<T> {
  const skipped = new Set<string>(STORAGE_ONLY);
  const entries = Object.entries(getTableColumns(licenses) as Record<string, Column>)
    .filter(([key]) => !skipped.has(key))
    .map(([key, column]) => (key === 'status' ? ['storedStatus', column] : key === 'machineFingerprint' ? [key, firstMachine] : [key, column]));
  return Object.fromEntries(entries) as LicenseColumns<T>;
}

type StateColumns<T extends LicenseTable> = Pick<T, 'id' | 'developerId' | 'productId' | 'features' | 'expiresAt' | 'maxMachines'> & {
  storedStatus: T['status'];
  activations: SQL<string>;
};

/** What validation reads: the hot path's one statement per dialect, prepared once by its repository. */
export function licenseStateColumns<T extends LicenseTable>(licenses: T, activationsJson: SQL<string>): StateColumns<T> {
  return {
    id: licenses.id,
    developerId: licenses.developerId,
    productId: licenses.productId,
    storedStatus: licenses.status,
    features: licenses.features,
    expiresAt: licenses.expiresAt,
    maxMachines: licenses.maxMachines,
    activations: activationsJson,
  };
}

type SummaryColumns<T extends LicenseTable> = Pick<T, 'id' | 'customerId' | 'productId' | 'issuedAt' | 'expiresAt' | 'trial'> & { storedStatus: T['status'] };

/** A license as a seller's customer list shows it, with the customer it belongs to. */
export function licenseSummaryColumns<T extends LicenseTable>(licenses: T): SummaryColumns<T> {
  const { id, customerId, productId, status, issuedAt, expiresAt, trial } = licenses;
  return { id, customerId, productId, storedStatus: status, issuedAt, expiresAt, trial };
}

/** The dialect's own subqueries of activations, as its license statements read them. */
export interface ActivationColumns {
  activationsJson: SQL<string>;
  firstMachine: SQL<string | null>;
}

/**
 * What a dialect's license repository builds its own statements from: the hot path's state
 * columns, the subject its events carry (with the customer's e-mail), and update's patch.
 */
export function licenseStatementParts<T extends LicenseTable, C extends CustomerTable>(licenses: T, customers: C, activations: ActivationColumns) {
  return {
    stateColumns: licenseStateColumns(licenses, activations.activationsJson),
    subjectColumns: { ...licenseColumns(licenses, activations.firstMachine), customerEmail: customers.email as C['email'] },
    licensePatch: columnPatch(licenses, { storedStatus: 'status' }),
  };
}

/** A state row with its activations still JSON text, parsed. */
export function stateOf(row: (Omit<LicenseState, 'activations'> & { activations: string }) | undefined): LicenseState | null {
  return row ? { ...row, activations: JSON.parse(row.activations) } : null;
}

export const withoutEmail = ({ customerEmail: _e, ...license }: LicenseSubject): License => license;

/** The columns a reissue writes: the key, the term, and what a conversion or a subscription brings. */
export function reissueSet<T extends LicenseTable>(licenses: T, dialect: Pick<SqlDialect, 'same'>, change: LicenseReissue) {
  const { licenseKey, keyHash, expiresAt, features, convert, adopt, subscriptionId } = change;
  return {
    licenseKey,
    keyHash,
    expiresAt,
    features,
    // The expiry and trial-ending announcements belong to one expiresAt: a new one is announced again.
    expiryAnnouncedAt: sql<number | null>`CASE WHEN ${dialect.same(licenses.expiresAt, expiresAt)} THEN ${licenses.expiryAnnouncedAt} END`,
    trialEndingAnnouncedAt: sql<number | null>`CASE WHEN ${dialect.same(licenses.expiresAt, expiresAt)} THEN ${licenses.trialEndingAnnouncedAt} END`,
    ...(convert ? { trial: false, ...convert } : {}),
    ...(adopt ?? {}),
    ...(subscriptionId === undefined ? {} : { subscriptionId }),
  };
}

/**
 * The compare-and-swap of a reissue: only the holder of the current digest wins; a conversion only
 * of a trial; an adoption only of a trial no subscription holds yet (re-signed with the same claims,
 * the key may be unchanged: the digest alone would let a second adoption through).
 */
export function reissueGuard<T extends LicenseTable>(licenses: T, change: LicenseReissue) {
  return and(
    eq(licenses.keyHash, change.expectKeyHash),
    change.convert || change.adopt ? eq(licenses.trial, true) : undefined,
    change.adopt ? isNull(licenses.subscriptionId) : undefined,
  );
}

/** A unique violation of a license's origin as the conflict it means; null for any other error. */
export function originConflict(error: unknown, isViolation: (error: unknown, of: 'checkoutSession' | 'purchase') => boolean): ConflictError | null {
  if (isViolation(error, 'checkoutSession')) return new ConflictError('conflict', 'This checkout session already has its license.');
  if (isViolation(error, 'purchase')) return new ConflictError('conflict', 'This purchase already has its license.');
  return null;
}
