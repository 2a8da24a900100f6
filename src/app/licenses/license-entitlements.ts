import { ENTITLEMENT_LIMITS, entitlementsProblem, normalizeEntitlements, sameEntitlements, unionEntitlements } from '../../domain/entitlements.ts';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../domain/errors.ts';
import { viewLicense, type LicenseView } from '../../domain/license.ts';
import type { Product } from '../../domain/product.ts';
import type { Deps } from '../../ports/deps.ts';
import { reissueLicense, type ReissueDeps } from './reissue-license.ts';

/**
 * What a license holds (docs/entitlements.md): its product's set, then the codes given for it
 * (case-insensitively distinct, first spelling kept). At most ENTITLEMENT_LIMITS.max in all:
 * `field` names the request field a longer union is blamed on.
 */
export function licenseEntitlements(product: Pick<Product, 'features'>, given: readonly string[] | undefined, field: string): string[] {
  const problem = entitlementsProblem(field, given ?? []);
  if (problem) throw new InvalidRequestError(problem.message, problem.field);
  const union = unionEntitlements(product.features, normalizeEntitlements(given));
  if (union.length > ENTITLEMENT_LIMITS.max) {
    throw new InvalidRequestError(`The product's ${product.features.length} entitlements and these make ${union.length}: a license holds at most ${ENTITLEMENT_LIMITS.max}.`, field);
  }
  return union;
}

/**
 * A seller sets one license's own entitlements: it then holds its product's current set plus
 * these, under a key re-signed through the renewal path (same id, term and machines; the replaced
 * key still validates and hands the new one over). The same set again (case-insensitively) changes
 * nothing: no new key, no event. A revoked license stays as it is (409), and so does a free trial,
 * whose key is re-signed only by its purchase (409): a trial holds its product's set.
 */
export async function setLicenseEntitlements(
  deps: ReissueDeps & Pick<Deps, 'products'>,
  developerId: string,
  licenseId: string,
  given: readonly string[],
): Promise<{ license: LicenseView; licenseKey: string }> {
  const found = await deps.licenses.findById(licenseId);
  if (!found || found.developerId !== developerId) throw new NotFoundError('license');
  const product = await deps.products.get(developerId, found.productId);
  const features = licenseEntitlements(product ?? { features: [] }, given, 'entitlements');
  // The license as the reissue last read it decides: it may be revoked or bought meanwhile.
  const seen: { refusal: 'revoked' | 'trial' | null } = { refusal: null };
  const after = await reissueLicense(deps, licenseId, (current) => {
    seen.refusal = current.storedStatus === 'revoked' ? 'revoked' : current.trial ? 'trial' : null;
    if (seen.refusal || sameEntitlements(current.features, features)) return null;
    return { expiresAt: current.expiresAt, features };
  });
  const { refusal } = seen;
  if (refusal === 'revoked') throw new ConflictError('conflict', 'This license is revoked: its entitlements no longer change.');
  if (refusal === 'trial') throw new ConflictError('conflict', 'This license is a free trial: it holds its product’s entitlements until it is bought.');
  return { license: viewLicense(after, deps.clock.now()), licenseKey: after.licenseKey };
}
