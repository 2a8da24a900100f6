/**
 * Floating leases (docs/leases.md): a machine holds one of a license's `maxLeases` seats for
 * `leaseSeconds`, extended by heartbeats, freed by a release or by time. A lease past its expiry
 * counts for nothing, whether or not the sweeper has deleted it yet: the limit is decided by the
 * store under the license's lock, comparing expiries with the clock.
 */

export interface Lease {
  id: string;
  licenseId: string;
  machineFingerprint: string;
  createdAt: number;
  expiresAt: number;
}

/**
 * A product's lease terms, each overridable per license. maxLeases null = floating leases are off
 * (the default: no product starts heartbeating by surprise); 0 on a license turns them off for it.
 */
export interface LeaseTerms {
  maxLeases: number | null;
  leaseSeconds: number;
  /** Hours a lease may be borrowed for offline use; 0 = no borrowing. */
  maxBorrowHours: number;
}

/** A license's own terms: null in a field = the product's. */
export type LeaseOverrides = { [K in keyof LeaseTerms]: LeaseTerms[K] | null };

export const LEASE_LIMITS = { maxLeasesMax: 10_000, leaseSecondsMin: 60, leaseSecondsMax: 86_400, maxBorrowHoursMax: 24 * 90 } as const;
export const DEFAULT_LEASE_TERMS: LeaseTerms = { maxLeases: null, leaseSeconds: 600, maxBorrowHours: 0 };
export const NO_LEASE_OVERRIDES: LeaseOverrides = { maxLeases: null, leaseSeconds: null, maxBorrowHours: null };

export const LEASE_MESSAGES = {
  maxLeases: `maxLeases must be a whole number from 1 to ${LEASE_LIMITS.maxLeasesMax}, or null for no floating leases.`,
  licenseMaxLeases: `maxLeases must be a whole number from 0 to ${LEASE_LIMITS.maxLeasesMax} (0: no leases for this license), or null for the product's.`,
  leaseSeconds: `leaseSeconds must be a whole number of seconds from ${LEASE_LIMITS.leaseSecondsMin} to ${LEASE_LIMITS.leaseSecondsMax}.`,
  maxBorrowHours: `maxBorrowHours must be a whole number of hours from 0 to ${LEASE_LIMITS.maxBorrowHoursMax} (0: no borrowing).`,
};

const wholeIn = (value: unknown, min: number, max: number) => Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;

/** The first product lease term out of its bounds, or null. */
export function leaseTermsProblem(terms: Partial<LeaseTerms>): { field: keyof LeaseTerms; message: string } | null {
  if (terms.maxLeases != null && !wholeIn(terms.maxLeases, 1, LEASE_LIMITS.maxLeasesMax)) return { field: 'maxLeases', message: LEASE_MESSAGES.maxLeases };
  if (terms.leaseSeconds !== undefined && !wholeIn(terms.leaseSeconds, LEASE_LIMITS.leaseSecondsMin, LEASE_LIMITS.leaseSecondsMax))
    return { field: 'leaseSeconds', message: LEASE_MESSAGES.leaseSeconds };
  if (terms.maxBorrowHours !== undefined && !wholeIn(terms.maxBorrowHours, 0, LEASE_LIMITS.maxBorrowHoursMax)) return { field: 'maxBorrowHours', message: LEASE_MESSAGES.maxBorrowHours };
  return null;
}

/** The first license override out of its bounds, or null (null fields are the product's). */
export function leaseOverridesProblem(overrides: Partial<LeaseOverrides>): { field: keyof LeaseTerms; message: string } | null {
  if (overrides.maxLeases != null && !wholeIn(overrides.maxLeases, 0, LEASE_LIMITS.maxLeasesMax)) return { field: 'maxLeases', message: LEASE_MESSAGES.licenseMaxLeases };
  return leaseTermsProblem({ leaseSeconds: overrides.leaseSeconds ?? undefined, maxBorrowHours: overrides.maxBorrowHours ?? undefined });
}

/** What applies to one license: its own terms where it has them, the product's otherwise. */
export function effectiveLeaseTerms(product: LeaseTerms, license: LeaseOverrides): LeaseTerms {
  return {
    maxLeases: license.maxLeases ?? product.maxLeases,
    leaseSeconds: license.leaseSeconds ?? product.leaseSeconds,
    maxBorrowHours: license.maxBorrowHours ?? product.maxBorrowHours,
  };
}

/** Leases off: null or 0 seats. */
export function leasesOff(terms: Pick<LeaseTerms, 'maxLeases'>): boolean {
  return terms.maxLeases === null || terms.maxLeases === 0;
}

/** A lease counts while now < expiresAt. */
export function isLive(lease: Pick<Lease, 'expiresAt'>, now: number): boolean {
  return now < lease.expiresAt;
}

/** When a lease checked out or renewed at `now` ends: a borrowed one at `now + borrowHours`, capped by the license's expiry. */
export function leaseExpiry(now: number, leaseSeconds: number, licenseExpiresAt: number | null, borrowHours = 0): number {
  const end = now + (borrowHours > 0 ? borrowHours * 3_600_000 : leaseSeconds * 1000);
  return licenseExpiresAt === null ? end : Math.min(end, licenseExpiresAt);
}

/** Lease ids as the service makes them (`lease_` and 22 base62 characters); anything else is refused before any lookup. */
export const LEASE_ID_PATTERN = '^lease_[0-9A-Za-z]{1,64}$';
