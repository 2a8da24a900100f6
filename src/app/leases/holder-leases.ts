import { DomainError, NotFoundError } from '../../domain/errors.ts';
import { effectiveLeaseTerms, leaseExpiry, type Lease } from '../../domain/lease.ts';
import { licenseRefusal } from '../../domain/license.ts';
import type { LicenseState } from '../../ports/license-repository.ts';
import type { Deps } from '../../ports/deps.ts';
import { heldLicense, type HolderCall, type HolderDeps } from '../licenses/activations.ts';
import { hitOrRefuse } from '../limits/address-limits.ts';

type LeaseDeps = HolderDeps & Pick<Deps, 'leases'>;

/** Checkouts per license and minute: a client in a retry loop cannot flood its seller's store or webhooks. */
export const LEASE_CHECKOUTS_PER_MINUTE = 120;

export class LeaseLimitError extends DomainError {
  constructor(live: number, maxLeases: number) {
    super('lease_limit', `All ${maxLeases} floating leases of this license are taken (${live} live): try again when one is released or expires.`, { live, maxLeases });
  }
}

export class LeaseExpiredError extends DomainError {
  constructor() {
    super('lease_expired', 'This lease has expired: check out a new one (POST /licenses/leases).');
  }
}

export class LeaseBorrowedError extends DomainError {
  constructor(expiresAt: number) {
    super('lease_borrowed', `This lease is borrowed: its signed token is good until ${new Date(expiresAt).toISOString()}, so its seat stays taken until then.`, { expiresAt });
  }
}

/** A revoked or expired license holds no lease: 409 conflict with the reason. */
function assertUsable(license: LicenseState, now: number): void {
  const reason = licenseRefusal(license, now);
  if (reason) throw new DomainError('conflict', `This license is ${reason}: it cannot hold a lease.`, { reason });
}

export interface CheckoutInput {
  licenseKey: string;
  machineFingerprint: string;
  /** Borrow for offline use: hours, up to the terms' maxBorrowHours. */
  borrowHours?: number;
}

/** A live lease for this machine: new (`created`), or its own renewed. */
export async function checkoutLease(deps: LeaseDeps, call: HolderCall, input: CheckoutInput): Promise<{ lease: Lease; created: boolean; license: LicenseState }> {
  const license = await heldLicense(deps, call, input.licenseKey);
  const now = deps.clock.now();
  assertUsable(license, now);
  await hitOrRefuse(deps, `lease:license:${license.id}`, LEASE_CHECKOUTS_PER_MINUTE, 60_000, (limit, seconds) =>
    `Too many lease checkouts of this license (at most ${limit} a minute). Try again in ${seconds} seconds.`,
  );
  const outcome = await deps.leases.checkout(license.id, { id: deps.ids.next('lease'), machineFingerprint: input.machineFingerprint, at: now, borrowHours: input.borrowHours ?? 0 });
  switch (outcome.kind) {
    case 'missing':
      throw new NotFoundError('license with this key');
    case 'off':
      throw new DomainError('conflict', 'This license has no floating leases: its seller has not set maxLeases for the product or the license.', { reason: 'leases_off' });
    case 'borrow_refused':
      throw new DomainError('conflict', `This license lends a lease for at most ${outcome.maxBorrowHours} hours (0: no borrowing).`, { reason: 'borrow_refused', maxBorrowHours: outcome.maxBorrowHours });
    case 'full':
      throw new LeaseLimitError(outcome.live, outcome.maxLeases);
    default:
      return { lease: outcome.lease, created: outcome.kind === 'created', license };
  }
}

/** Extends a live lease of the license whose key is sent; an expired one is 410, another's (or none) 404. */
export async function heartbeatLease(deps: LeaseDeps, call: HolderCall, input: { licenseKey: string; leaseId: string }): Promise<Lease> {
  const license = await heldLicense(deps, call, input.licenseKey);
  const now = deps.clock.now();
  assertUsable(license, now);
  const terms = await deps.leases.terms(license.id);
  if (!terms) throw new NotFoundError('license with this key');
  const { leaseSeconds } = effectiveLeaseTerms(terms.product, terms.license);
  const outcome = await deps.leases.heartbeat(license.id, input.leaseId, now, leaseExpiry(now, leaseSeconds, terms.licenseExpiresAt));
  if (outcome.kind === 'missing') throw new NotFoundError('lease of this license');
  if (outcome.kind === 'expired') throw new LeaseExpiredError();
  return outcome.lease;
}

/**
 * Frees the lease; idempotent: a lease already released, swept, or never this license's answers
 * `released: false` and changes nothing. A revoked or expired license may still release. A borrowed
 * lease is 409 lease_borrowed until its end: its token works offline until then, whatever we delete.
 */
export async function releaseLease(deps: LeaseDeps, call: HolderCall, input: { licenseKey: string; leaseId: string }): Promise<{ released: boolean }> {
  const license = await heldLicense(deps, call, input.licenseKey);
  const outcome = await deps.leases.release(license.id, input.leaseId, deps.clock.now());
  if (outcome.kind === 'borrowed') throw new LeaseBorrowedError(outcome.expiresAt);
  return { released: outcome.kind === 'released' };
}
