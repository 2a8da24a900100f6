import { ConflictError } from '../../domain/errors.ts';
import { assembleLicenseKey, type LicenseClaims, signingInputFor } from '../../domain/license-key.ts';
import { utf8 } from '../../domain/base64url.ts';
import { NEW_LICENSE, type License } from '../../domain/license.ts';
import type { Deps } from '../../ports/deps.ts';
import type { ReceiptFor } from '../mail/receipt.ts';

export interface LicenseTerms {
  developerId: string;
  productId: string;
  customerId: string;
  features: string[];
  /**
   * The caller's one clock read, from which it also computed `expiresAt`: a second read here would
   * make a 30-day license last 30 days minus the time between them.
   */
  issuedAt: number;
  expiresAt: number | null;
  /** The product's, copied onto the license: later product changes do not reach issued licenses. */
  maxMachines: number | null;
  /** A free trial (default false). */
  trial?: boolean;
  /** A trial whose holder proved the e-mail or was vouched for by the seller: its key says so (`proven`). */
  proven?: boolean;
  /** The subscription that renews it (default none). */
  subscriptionId?: string | null;
}

/**
 * Signs and stores one license. Every path that yields a license (grant, checkout, terminal purchase)
 * comes through here, so keys are alike whatever sold them. The receipt, when given, is queued in
 * the license's own write.
 */
export async function issueLicense(
  deps: Pick<Deps, 'clock' | 'ids' | 'hashing' | 'signer' | 'signingKeys' | 'licenses' | 'settings'>,
  terms: LicenseTerms,
  origin?: { checkoutSessionId?: string; purchaseId?: string },
  receipt?: ReceiptFor,
): Promise<License> {
  const license = await signNewLicense(deps, terms);
  await deps.licenses.create(license, deps.hashing.hash(license.licenseKey), origin, receipt?.(license));
  return license;
}

/**
 * A new license with its signed key, not stored yet: issueLicense stores it alone, a trial stores it
 * with its claims and its machine in one transaction. A trial's key carries the `trial` claim.
 */
export async function signNewLicense(deps: Pick<Deps, 'clock' | 'ids' | 'signer' | 'signingKeys' | 'settings'>, terms: LicenseTerms): Promise<License> {
  const id = deps.ids.next('lic');
  const { issuedAt } = terms;
  const licenseKey = await signLicenseKey(deps, {
    iss: deps.settings.issuer,
    sub: terms.developerId,
    id,
    productId: terms.productId,
    features: terms.features,
    issuedAt,
    expiresAt: terms.expiresAt,
    ...(terms.trial === true && { trial: true as const }),
    ...(terms.trial === true && terms.proven === true && { proven: true as const }),
  });
  return {
    ...NEW_LICENSE,
    id,
    developerId: terms.developerId,
    productId: terms.productId,
    customerId: terms.customerId,
    features: terms.features,
    issuedAt,
    expiresAt: terms.expiresAt,
    maxMachines: terms.maxMachines,
    licenseKey,
    trial: terms.trial ?? false,
    subscriptionId: terms.subscriptionId ?? null,
  };
}

/**
 * A license key for `claims`, signed with the developer's (`sub`) current active signing key. Issue
 * and reissue both come here, so a re-signed key is built exactly like the first one.
 */
export async function signLicenseKey(deps: Pick<Deps, 'clock' | 'signer' | 'signingKeys'>, claims: LicenseClaims): Promise<string> {
  const signingKey = await deps.signingKeys.active(claims.sub, deps.clock.now());
  if (!signingKey) throw new ConflictError('conflict', 'The developer has no active signing key.');
  const input = signingInputFor(signingKey.kid, claims);
  return assembleLicenseKey(input, deps.signer.sign(signingKey.sealedPrivateKey, utf8.encode(input)));
}
