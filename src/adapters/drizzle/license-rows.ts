import { getTableColumns, sql, type Column, type SQL } from 'drizzle-orm';
import { ConflictError } from '../../domain/errors.ts';
import type { LicenseSubject } from '../../domain/events.ts';
import type { License } from '../../domain/license.ts';
import type { LicenseReissue, LicenseState } from '../../ports/license-repository.ts';
import type * as pg from '../postgres/schema.ts';
import type * as lite from '../sqlite/schema.ts';
import type { SqlDialect } from './sql-store.ts';

/** Either dialect's licenses table: the column lists below are built for the one a query runs on. */
type LicenseTable = typeof pg.licenses | typeof lite.licenses;
type Columns<T extends LicenseTable> = T['_']['columns'];

/** Columns the License type does not carry: storage (digest, origin, announcement) and the pre-activations binding. */
const STORAGE_ONLY = ['keyHash', 'checkoutSessionId', 'purchaseId', 'expiryAnnouncedAt', 'boundAt'] as const;
type StorageOnly = (typeof STORAGE_ONLY)[number];

export type LicenseColumns<T extends LicenseTable> = {
  [K in Exclude<keyof Columns<T>, StorageOnly | 'status' | 'machineFingerprint'>]: Columns<T>[K];
} & { storedStatus: Columns<T>['status']; machineFingerprint: SQL<string | null> };

/**
 * A license as the License type has it, derived from the table in its column order: every column
 * but the storage-only ones, `status` read as storedStatus, and the machine of the oldest activation
 * in place of the legacy binding column. A column added to both schema files is read with no edit here.
 */
export function licenseColumns<T extends LicenseTable>(licenses: T, firstMachine: SQL<string | null>): LicenseColumns<T> {
  const skipped = new Set<string>(STORAGE_ONLY);
  const entries = Object.entries(getTableColumns(licenses) as Record<string, Column>)
    .filter(([key]) => !skipped.has(key))
    .map(([key, column]) => (key === 'status' ? ['storedStatus', column] : key === 'machineFingerprint' ? [key, firstMachine] : [key, column]));
  return Object.fromEntries(entries) as LicenseColumns<T>;
}

type StateColumns<T extends LicenseTable> = Pick<T, 'id' | 'developerId' | 'features' | 'expiresAt' | 'maxMachines'> & {
  storedStatus: T['status'];
  activations: SQL<string>;
};

/** What validation reads: the hot path's one statement per dialect, prepared once by its repository. */
export function licenseStateColumns<T extends LicenseTable>(licenses: T, activationsJson: SQL<string>): StateColumns<T> {
  return {
    id: licenses.id,
    developerId: licenses.developerId,
    storedStatus: licenses.status,
    features: licenses.features,
    expiresAt: licenses.expiresAt,
    maxMachines: licenses.maxMachines,
    activations: activationsJson,
  };
}

/** A state row with its activations still JSON text, parsed. */
export function stateOf(row: (Omit<LicenseState, 'activations'> & { activations: string }) | undefined): LicenseState | null {
  return row ? { ...row, activations: JSON.parse(row.activations) } : null;
}

export const withoutEmail = ({ customerEmail: _e, ...license }: LicenseSubject): License => license;

/** The columns a reissue writes: the key, the term, and what a conversion or a subscription brings. */
export function reissueSet<T extends LicenseTable>(licenses: T, dialect: Pick<SqlDialect, 'same'>, change: LicenseReissue) {
  const { licenseKey, keyHash, expiresAt, features, convert, subscriptionId } = change;
  return {
    licenseKey,
    keyHash,
    expiresAt,
    features,
    // The expiry announcement belongs to one expiresAt: a new one may expire (and be announced) again.
    expiryAnnouncedAt: sql<number | null>`CASE WHEN ${dialect.same(licenses.expiresAt, expiresAt)} THEN ${licenses.expiryAnnouncedAt} END`,
    ...(convert ? { trial: false, ...convert } : {}),
    ...(subscriptionId === undefined ? {} : { subscriptionId }),
  };
}

/** A unique violation of a license's origin as the conflict it means; null for any other error. */
export function originConflict(error: unknown, isViolation: (error: unknown, of: 'checkoutSession' | 'purchase') => boolean): ConflictError | null {
  if (isViolation(error, 'checkoutSession')) return new ConflictError('conflict', 'This checkout session already has its license.');
  if (isViolation(error, 'purchase')) return new ConflictError('conflict', 'This purchase already has its license.');
  return null;
}
