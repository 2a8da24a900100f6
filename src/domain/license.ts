/** A license and the rules that decide whether it is usable right now. */
import { maxMachinesProblem } from './activation.ts';
/** Only these are stored; `expired` is derived from the clock. */
export const LICENSE_STORED_STATUSES = ['active', 'revoked'] as const;
export type StoredLicenseStatus = (typeof LICENSE_STORED_STATUSES)[number];
export const LICENSE_STATUSES = ['active', 'expired', 'revoked'] as const;
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];
/**
 * The statuses after which a license never validates again under its key: what the client library
 * keeps as a final verdict. A new status is decided here: final or not.
 */
export const FINAL_LICENSE_STATUSES = ['revoked', 'expired'] as const satisfies readonly LicenseStatus[];
export type FinalLicenseStatus = (typeof FINAL_LICENSE_STATUSES)[number];

/** Why the service refuses a key, in CONTRACT.md's order. */
export const VALIDATION_REASONS = ['not_found', 'expired', 'revoked', 'invalid_format', 'invalid_signature', 'machine_mismatch'] as const;
export type ValidationReason = (typeof VALIDATION_REASONS)[number];
/** The service's reasons plus the one only a client can reach: it could not ask the service. */
export const INVALID_REASONS = [...VALIDATION_REASONS, 'network_error'] as const;
export type InvalidReason = (typeof INVALID_REASONS)[number];

export interface License {
  id: string;
  developerId: string;
  productId: string;
  customerId: string;
  /** Only `active` or `revoked` are stored; `expired` is derived from the clock. */
  storedStatus: StoredLicenseStatus;
  features: string[];
  issuedAt: number;
  expiresAt: number | null;
  /**
   * The machine of its oldest activation (null = none): with maxMachines 1, the machine it is bound
   * to, as before activations. Derived by the store, never written through this field.
   */
  machineFingerprint: string | null;
  /** Copied from the product at issue; the seller may change it per license. null = unlimited. */
  maxMachines: number | null;
  licenseKey: string;
  /** A free trial, not paid for (yet): converted in place when its holder buys the product. */
  trial: boolean;
  /** The subscription whose paid periods extend it; null = one-off, granted or trial. */
  subscriptionId: string | null;
}

/** What a new license starts with, before its terms: active, on no machine, paid for, one-off. */
export const NEW_LICENSE = { storedStatus: 'active', machineFingerprint: null, trial: false, subscriptionId: null } as const satisfies Partial<License>;

/** What a seller may change on one of its licenses (PATCH /licenses/:id). */
export interface LicenseChanges {
  /** null = unlimited; the product's limit applies to licenses issued later. */
  maxMachines: number | null;
}

export const LICENSE_CHANGE_FIELDS = ['maxMachines'] as const satisfies readonly (keyof LicenseChanges)[];

/** Only the fields a seller may change, from a request that may hold others (they are never written). */
export function licenseChangesOf(request: object): Partial<LicenseChanges> {
  const given = request as Partial<LicenseChanges>;
  return Object.fromEntries(LICENSE_CHANGE_FIELDS.filter((field) => Object.hasOwn(given, field)).map((field) => [field, given[field]]));
}

/** The first field of `changes` out of its bounds, or null. */
export function licenseChangesProblem(changes: Partial<LicenseChanges>): { field: keyof LicenseChanges; message: string } | null {
  const machines = changes.maxMachines === undefined ? null : maxMachinesProblem(changes.maxMachines);
  return machines === null ? null : { field: 'maxMachines', message: machines };
}

/** A license expires at its `expiresAt` millisecond: valid while now < expiresAt. */
export function isExpired(expiresAt: number | null, now: number): boolean {
  return expiresAt !== null && now >= expiresAt;
}

export function licenseStatus(
  license: Pick<License, 'storedStatus' | 'expiresAt'>,
  now: number,
): LicenseStatus {
  return licenseRefusal(license, now) ?? 'active';
}

/** Why validation and activation refuse this license right now, or null: revoked, then expired. */
export function licenseRefusal(license: Pick<License, 'storedStatus' | 'expiresAt'>, now: number): Exclude<LicenseStatus, 'active'> | null {
  if (license.storedStatus !== 'active') return license.storedStatus;
  return isExpired(license.expiresAt, now) ? 'expired' : null;
}

/** The license as its seller sees it: every answer that shows a license, and its events, start from it. */
export interface LicenseView {
  id: string;
  productId: string;
  customerId: string;
  status: LicenseStatus;
  features: string[];
  issuedAt: number;
  expiresAt: number | null;
  machineFingerprint: string | null;
}

export function viewLicense(license: License, now: number): LicenseView {
  return viewLicenseAs(license, licenseStatus(license, now));
}

/** The view with its status given: an event reports the status its change produced. */
export function viewLicenseAs(license: License, status: LicenseStatus): LicenseView {
  return {
    id: license.id,
    productId: license.productId,
    customerId: license.customerId,
    status,
    features: license.features,
    issuedAt: license.issuedAt,
    expiresAt: license.expiresAt,
    machineFingerprint: license.machineFingerprint,
  };
}

/** The license as its seller's list shows it (GET /developers/licenses): with its holder's e-mail, whether it is a trial, and what renews it. */
export type DeveloperLicenseView = LicenseView & { customerEmail: string; trial: boolean; subscriptionId: string | null };

export function viewDeveloperLicense(license: License & { customerEmail: string }, status: LicenseStatus): DeveloperLicenseView {
  return { ...viewLicenseAs(license, status), customerEmail: license.customerEmail, trial: license.trial, subscriptionId: license.subscriptionId };
}

/** The expiry of a license issued now for a product that lasts `licenseDays` (null = perpetual). */
export function expiryFor(licenseDays: number | null, issuedAt: number): number | null {
  return licenseDays === null ? null : issuedAt + licenseDays * 86_400_000;
}
