import { InvalidRequestError, NotFoundError } from '../../domain/errors.ts';
import { effectiveLeaseTerms, leaseOverridesProblem, type Lease, type LeaseOverrides, type LeaseTerms } from '../../domain/lease.ts';
import type { Deps } from '../../ports/deps.ts';

type SellerDeps = Pick<Deps, 'clock' | 'licenses' | 'leases'>;

/** A license's lease terms as its seller reads them: its own, the product's, what applies, and the live leases. */
export interface LicenseLeases {
  licenseId: string;
  own: LeaseOverrides;
  product: LeaseTerms;
  effective: LeaseTerms;
  live: Lease[];
}

async function ownLicenseId(deps: SellerDeps, developerId: string, licenseId: string): Promise<string> {
  const license = await deps.licenses.findStateById(licenseId);
  // Another seller's license does not exist for this one.
  if (!license || license.developerId !== developerId) throw new NotFoundError('license');
  return license.id;
}

export async function licenseLeases(deps: SellerDeps, developerId: string, licenseId: string): Promise<LicenseLeases> {
  const id = await ownLicenseId(deps, developerId, licenseId);
  const terms = await deps.leases.terms(id);
  if (!terms) throw new NotFoundError('license');
  const live = await deps.leases.listLive(id, deps.clock.now());
  return { licenseId: id, own: terms.license, product: terms.product, effective: effectiveLeaseTerms(terms.product, terms.license), live };
}

/** Sets this license's own terms (a null field: the product's). Lowered below the live count, live leases run to their end. */
export async function setLicenseLeaseTerms(deps: SellerDeps, developerId: string, licenseId: string, overrides: LeaseOverrides): Promise<LicenseLeases> {
  const problem = leaseOverridesProblem(overrides);
  if (problem) throw new InvalidRequestError(problem.message, problem.field);
  if (!(await deps.leases.setOverrides(developerId, licenseId, overrides))) throw new NotFoundError('license');
  return licenseLeases(deps, developerId, licenseId);
}
