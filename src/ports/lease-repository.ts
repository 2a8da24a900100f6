import type { Lease, LeaseOverrides, LeaseTerms } from '../domain/lease.ts';

/** A checkout: the caller picks the id (`lease_…`) and the time; `borrowHours` > 0 borrows it for offline use. */
export interface NewLease {
  id: string;
  machineFingerprint: string;
  at: number;
  borrowHours: number;
}

export type LeaseCheckout =
  | { kind: 'missing' }
  | { kind: 'off' }
  | { kind: 'borrow_refused'; maxBorrowHours: number }
  | { kind: 'full'; live: number; maxLeases: number }
  | { kind: 'created' | 'renewed'; lease: Lease };

/** A release: freed now, refused while a borrowed lease's token is still good (its seat stays taken), or no such lease of this license. */
export type LeaseRelease = { kind: 'released'; lease: Lease } | { kind: 'borrowed'; expiresAt: number } | { kind: 'missing' };

export type LeaseHeartbeat = { kind: 'extended'; lease: Lease } | { kind: 'expired' } | { kind: 'missing' };

/** What applies to a license's leases: the product's terms, the license's own, and the license's end. */
export interface LicenseLeaseTerms {
  product: LeaseTerms;
  license: LeaseOverrides;
  licenseExpiresAt: number | null;
}

export interface LeaseRepository {
  /**
   * Renews this machine's live lease, or takes a free seat, all under the license's lock (row lock,
   * or SQLite's IMMEDIATE transaction): of any number of concurrent checkouts, exactly as many as there
   * are free seats win. Expired leases count for nothing; this machine's expired one is ended here.
   */
  checkout(licenseId: string, lease: NewLease): Promise<LeaseCheckout>;
  /** Moves a live, not borrowed, lease of this license to `expiresAt`: one conditional UPDATE. */
  heartbeat(licenseId: string, leaseId: string, now: number, expiresAt: number): Promise<LeaseHeartbeat>;
  /**
   * Ends the lease now (lease.released), in one conditional DELETE: a borrowed lease is not ended
   * before its expiresAt (its signed token is good until then, so its seat stays counted).
   */
  release(licenseId: string, leaseId: string, now: number): Promise<LeaseRelease>;
  /** The license's terms; null for no such license. */
  terms(licenseId: string): Promise<LicenseLeaseTerms | null>;
  /** Sets the license's own terms (null fields = the product's); false for no such license of this seller. */
  setOverrides(developerId: string, licenseId: string, overrides: LeaseOverrides): Promise<boolean>;
  /** The license's leases live at `now`, oldest first. */
  listLive(licenseId: string, now: number): Promise<Lease[]>;
  /** The sweeper: deletes up to `limit` leases expired before `before`, each with its lease.expired event. */
  deleteExpired(before: number, limit: number): Promise<number>;
}
