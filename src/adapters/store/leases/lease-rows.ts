import { eq, lte, or, type AnyColumn, type SQL } from 'drizzle-orm';
import { effectiveLeaseTerms, isLive, leaseExpiry, leasesOff, type Lease } from '../../../domain/lease.ts';
import type { LeaseCheckout, LicenseLeaseTerms, NewLease } from '../../../ports/lease-repository.ts';

type LeaseColumn = 'id' | 'licenseId' | 'machineFingerprint' | 'createdAt' | 'expiresAt';

/** A lease as the repositories answer it (without `borrowed`), from either dialect's table. */
export function leaseColumns<T extends Record<LeaseColumn, unknown>>({ id, licenseId, machineFingerprint, createdAt, expiresAt }: T): Pick<T, LeaseColumn> {
  return { id, licenseId, machineFingerprint, createdAt, expiresAt };
}

type TermColumns = { maxLeases: unknown; leaseSeconds: unknown; maxBorrowHours: unknown };
type Tables = { licenses: { developerId: unknown; productId: unknown; customerId: unknown; expiresAt: unknown }; products: TermColumns; own: TermColumns };

/** What a lease decision reads of its license, its product and the license's own terms (one joined row), from either dialect's tables. */
export function leaseOwnerColumns<T extends Tables>({ licenses, products, own }: T) {
  return {
    developerId: licenses.developerId as T['licenses']['developerId'],
    productId: licenses.productId as T['licenses']['productId'],
    customerId: licenses.customerId as T['licenses']['customerId'],
    licenseExpiresAt: licenses.expiresAt as T['licenses']['expiresAt'],
    productMaxLeases: products.maxLeases as T['products']['maxLeases'],
    productLeaseSeconds: products.leaseSeconds as T['products']['leaseSeconds'],
    productMaxBorrowHours: products.maxBorrowHours as T['products']['maxBorrowHours'],
    maxLeases: own.maxLeases as T['own']['maxLeases'],
    leaseSeconds: own.leaseSeconds as T['own']['leaseSeconds'],
    maxBorrowHours: own.maxBorrowHours as T['own']['maxBorrowHours'],
  };
}

export interface LeaseOwnerRow {
  developerId: string;
  productId: string;
  customerId: string;
  licenseExpiresAt: number | null;
  productMaxLeases: number | null;
  productLeaseSeconds: number;
  productMaxBorrowHours: number;
  maxLeases: number | null;
  leaseSeconds: number | null;
  maxBorrowHours: number | null;
}

export function leaseTermsOf(row: LeaseOwnerRow): LicenseLeaseTerms {
  return {
    product: { maxLeases: row.productMaxLeases, leaseSeconds: row.productLeaseSeconds, maxBorrowHours: row.productMaxBorrowHours },
    license: { maxLeases: row.maxLeases, leaseSeconds: row.leaseSeconds, maxBorrowHours: row.maxBorrowHours },
    licenseExpiresAt: row.licenseExpiresAt,
  };
}

/** What a checkout writes: the lease (renewed in place, or new), this machine's expired lease to end first, and the live count after. */
export type CheckoutDecision =
  | { kind: 'answer'; outcome: LeaseCheckout }
  | { kind: 'write'; lease: Lease; renewed: boolean; endedOwn: Lease | null; live: number; maxLeases: number };

/**
 * The limit, decided on the leases read under the license's lock: only live ones count, and the
 * machine's own live lease is renewed rather than counted twice.
 */
export function decideCheckout(licenseId: string, owner: LeaseOwnerRow, held: readonly Lease[], input: NewLease): CheckoutDecision {
  const { product, license, licenseExpiresAt } = leaseTermsOf(owner);
  const terms = effectiveLeaseTerms(product, license);
  if (leasesOff(terms)) return { kind: 'answer', outcome: { kind: 'off' } };
  if (input.borrowHours > terms.maxBorrowHours) return { kind: 'answer', outcome: { kind: 'borrow_refused', maxBorrowHours: terms.maxBorrowHours } };
  const maxLeases = terms.maxLeases as number;
  const expiresAt = leaseExpiry(input.at, terms.leaseSeconds, licenseExpiresAt, input.borrowHours);
  const own = held.find((l) => l.machineFingerprint === input.machineFingerprint);
  const live = held.filter((l) => isLive(l, input.at));
  if (own && isLive(own, input.at)) return { kind: 'write', lease: { ...own, expiresAt: Math.max(own.expiresAt, expiresAt) }, renewed: true, endedOwn: null, live: live.length, maxLeases };
  if (live.length >= maxLeases) return { kind: 'answer', outcome: { kind: 'full', live: live.length, maxLeases } };
  const lease: Lease = { id: input.id, licenseId, machineFingerprint: input.machineFingerprint, createdAt: input.at, expiresAt };
  return { kind: 'write', lease, renewed: false, endedOwn: own ?? null, live: live.length + 1, maxLeases };
}

/**
 * What a renewal writes: the later end, and `borrowed` only ever set, never cleared. A borrowed
 * lease's token is good until its end, so a plain checkout from the same machine must neither make it
 * releasable nor let heartbeats move its end earlier.
 */
export function renewedColumns(lease: Lease, input: NewLease): { expiresAt: number; borrowed?: true } {
  return input.borrowHours > 0 ? { expiresAt: lease.expiresAt, borrowed: true } : { expiresAt: lease.expiresAt };
}

/** The release's condition: a lease not borrowed, or one whose token has ended (`expiresAt <= now`). */
export function releasable(leases: { borrowed: AnyColumn; expiresAt: AnyColumn }, now: number): SQL {
  return or(eq(leases.borrowed, false), lte(leases.expiresAt, now)) as SQL;
}
