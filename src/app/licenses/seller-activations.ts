import type { Activation } from '../../domain/activation.ts';
import { InvalidRequestError, NotFoundError } from '../../domain/errors.ts';
import { licenseChangesOf, licenseChangesProblem, type LicenseChanges } from '../../domain/license.ts';
import type { Deps } from '../../ports/deps.ts';

type SellerDeps = Pick<Deps, 'licenses'>;

/** A license's machines as its seller sees them. */
export interface ActivationList {
  licenseId: string;
  maxMachines: number | null;
  data: Activation[];
}

export async function ownLicense(deps: SellerDeps, developerId: string, id: string) {
  const license = await deps.licenses.findById(id);
  // Another seller's license does not exist for this one.
  if (!license || license.developerId !== developerId) throw new NotFoundError('license');
  return license;
}

export async function listActivations(deps: SellerDeps, developerId: string, licenseId: string): Promise<ActivationList> {
  const license = await ownLicense(deps, developerId, licenseId);
  return { licenseId, maxMachines: license.maxMachines, data: await deps.licenses.listActivations(licenseId) };
}

/** The seller removes any machine at any time: not counted against the holder's quota. */
export async function removeActivation(deps: SellerDeps, developerId: string, licenseId: string, activationId: string): Promise<ActivationList> {
  await ownLicense(deps, developerId, licenseId);
  const outcome = await deps.licenses.deactivate(licenseId, { activationId });
  if (outcome.kind !== 'removed') throw new NotFoundError('activation');
  return listActivations(deps, developerId, licenseId);
}

/**
 * The seller's changes to one license, each field as given, then the license's machines: what
 * PATCH /licenses/:id answers (not the license). A machine limit below the current count keeps
 * every machine already there; none is added until enough are removed.
 */
export async function changeLicenseThenListActivations(deps: SellerDeps, developerId: string, licenseId: string, request: Partial<LicenseChanges>): Promise<ActivationList> {
  const changes = licenseChangesOf(request);
  const problem = licenseChangesProblem(changes);
  if (problem) throw new InvalidRequestError(problem.message, problem.field);
  await ownLicense(deps, developerId, licenseId);
  await deps.licenses.update(licenseId, changes);
  return listActivations(deps, developerId, licenseId);
}
