import { ConflictError } from '../../domain/errors.ts';
import { assembleLicenseKey, signingInputFor } from '../../domain/license-key.ts';
import { utf8 } from '../../domain/base64url.ts';
import type { License } from '../../domain/license.ts';
import type { Deps } from '../../ports/deps.ts';

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
  /** The subscription that renews it (default none). */
  subscriptionId?: string | null;
}

/**
 * Signs and stores one license. Every path that yields a license (grant, checkout, terminal purchase)
 * comes through here, so keys are alike whatever sold them.
 */
export async function issueLicense(
  deps: Pick<Deps, 'ids' | 'hashing' | 'signer' | 'signingKeys' | 'licenses' | 'issuer'>,
  terms: LicenseTerms,
  origin?: { checkoutSessionId?: string; purchaseId?: string },
): Promise<License> {
  const signingKey = await deps.signingKeys.active(terms.developerId);
  if (!signingKey) throw new ConflictError('conflict', 'The developer has no active signing key.');
  const id = deps.ids.next('lic');
  const { issuedAt } = terms;
  const input = signingInputFor(signingKey.kid, {
    iss: deps.issuer,
    sub: terms.developerId,
    id,
    productId: terms.productId,
    features: terms.features,
    issuedAt,
    expiresAt: terms.expiresAt,
  });
  const licenseKey = assembleLicenseKey(input, deps.signer.sign(signingKey.sealedPrivateKey, utf8.encode(input)));
  const license: License = {
    id,
    developerId: terms.developerId,
    productId: terms.productId,
    customerId: terms.customerId,
    storedStatus: 'active',
    features: terms.features,
    issuedAt,
    expiresAt: terms.expiresAt,
    machineFingerprint: null,
    maxMachines: terms.maxMachines,
    licenseKey,
    trial: terms.trial ?? false,
    subscriptionId: terms.subscriptionId ?? null,
  };
  await deps.licenses.create(license, deps.hashing.hash(licenseKey), origin);
  return license;
}
