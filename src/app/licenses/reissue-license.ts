import { ConflictError, NotFoundError } from '../../domain/errors.ts';
import type { License } from '../../domain/license.ts';
import type { Deps } from '../../ports/deps.ts';
import type { ReceiptFor } from '../mail/receipt.ts';
import { signLicenseKey } from './issue-license.ts';

export type ReissueDeps = Pick<Deps, 'clock' | 'hashing' | 'signer' | 'signingKeys' | 'licenses' | 'settings'>;

/** What a reissue changes; everything else (id, issuedAt, activations, machine limit) stays. */
export interface ReissueChange {
  expiresAt: number | null;
  /** undefined = the license's current features. */
  features?: string[];
  /** A trial bought: it becomes a paid license tied to what paid for it. */
  convert?: { checkoutSessionId?: string; purchaseId?: string };
  /** A trial taken over by a subscription's trial: tied to its checkout, still a trial (its key says so). */
  adopt?: { checkoutSessionId?: string; purchaseId?: string };
  /** undefined = unchanged. */
  subscriptionId?: string | null;
}

/**
 * Lost compare-and-swaps in a row before giving up. Each loss means another reissue of the same
 * license committed in between; 20 concurrent ones need at most 19 retries each.
 */
const MAX_ATTEMPTS = 64;

/**
 * Signs a fresh key for the license's current id with the change applied; retries on a lost
 * compare-and-swap (re-reading). The receipt, when given, is queued by the reissue that wins.
 */
export async function reissueLicense(deps: ReissueDeps, licenseId: string, change: (current: License) => ReissueChange | null, receipt?: ReceiptFor): Promise<License> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await deps.licenses.findById(licenseId);
    if (!current) throw new NotFoundError('license');
    // `change` is always asked (callers learn from it whether the outcome is theirs), but a revoked
    // license is never re-signed: its key, old or new, must stay dead.
    const wanted = change(current);
    if (!wanted || current.storedStatus === 'revoked') return current;
    const features = wanted.features ?? current.features;
    const licenseKey = await signLicenseKey(deps, {
      iss: deps.settings.issuer,
      sub: current.developerId,
      id: current.id,
      productId: current.productId,
      features,
      issuedAt: current.issuedAt,
      expiresAt: wanted.expiresAt,
      // Only a subscription's trial is re-signed still a trial: its buyer paid with a card for it.
      ...(wanted.adopt && { trial: true as const, proven: true as const }),
    });
    const next: License = {
      ...current,
      licenseKey,
      expiresAt: wanted.expiresAt,
      features,
      ...(wanted.convert && { trial: false }),
      ...(wanted.subscriptionId !== undefined && { subscriptionId: wanted.subscriptionId }),
    };
    const reissued = await deps.licenses.reissue(licenseId, {
      mail: receipt?.(next),
      expectKeyHash: deps.hashing.hash(current.licenseKey),
      licenseKey,
      keyHash: deps.hashing.hash(licenseKey),
      expiresAt: wanted.expiresAt,
      features,
      convert: wanted.convert,
      adopt: wanted.adopt,
      subscriptionId: wanted.subscriptionId,
      at: deps.clock.now(),
    });
    if (reissued) return reissued;
  }
  throw new ConflictError('conflict', 'The license kept changing while it was being re-signed; try again.');
}

/**
 * Extends to max(current expiresAt, expiresAt): idempotent and order-independent; no change (no new
 * key) when not later. A subscription's trial license is converted by it in place (its first paid
 * period: `trial` false, license.converted); the store guards that by `trial`, so it happens once.
 */
export async function renewLicense(deps: ReissueDeps, licenseId: string, expiresAt: number, receipt?: ReceiptFor): Promise<License> {
  return reissueLicense(
    deps,
    licenseId,
    (current) => {
      if (current.storedStatus === 'revoked') return null;
      if (current.trial) return { expiresAt: Math.max(expiresAt, current.expiresAt ?? 0), convert: {} };
      // A perpetual license (null) is already later than any date.
      if (current.expiresAt === null || current.expiresAt >= expiresAt) return null;
      return { expiresAt };
    },
    receipt,
  );
}
