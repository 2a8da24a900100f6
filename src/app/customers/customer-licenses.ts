import type { Activation } from '../../domain/activation.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { Deps } from '../../ports/deps.ts';
import { describeLicenses, type CustomerLicense } from '../auth/login.ts';
import { deactivateAsHolder } from '../licenses/activations.ts';
import type { ActivationList } from '../licenses/seller-activations.ts';
import { nameLookup } from './names.ts';

type CustomerLicenseDeps = Pick<Deps, 'clock' | 'licenses' | 'products' | 'developers'>;

/** A customer's license as login verify shows it, with the machines it runs on. */
export interface LicenseWithMachines extends CustomerLicense {
  /** The seller's name: two licenses of one product from two sellers read apart. */
  sellerName: string;
  trial: boolean;
  maxMachines: number | null;
  activations: Activation[];
}

/**
 * The logged-in customer's licenses across sellers, each with its machines (oldest first). One read
 * of the licenses, one product lookup per product, one activation list per license: a customer
 * holds a handful.
 */
export async function listCustomerLicenses(deps: CustomerLicenseDeps, customerId: string): Promise<LicenseWithMachines[]> {
  const licenses = await deps.licenses.listByCustomer(customerId);
  const names = nameLookup(deps);
  const [views, machines, sellers] = await Promise.all([
    describeLicenses(deps, licenses, deps.clock.now()),
    Promise.all(licenses.map((license) => deps.licenses.listActivations(license.id))),
    Promise.all(licenses.map((license) => names.sellerName(license.developerId))),
  ]);
  return views.map((view, i) => ({ ...view, sellerName: sellers[i]!, trial: licenses[i]!.trial, maxMachines: licenses[i]!.maxMachines, activations: machines[i]! }));
}

/**
 * The customer frees one of their license's machines: the same holder quota as
 * POST /licenses/deactivate (the license key's holder and its buyer are the same person).
 * Another customer's license, or an activation it does not have: 404.
 */
export async function removeCustomerActivation(deps: CustomerLicenseDeps, customerId: string, licenseId: string, activationId: string): Promise<ActivationList> {
  const license = await deps.licenses.findById(licenseId);
  if (!license || license.customerId !== customerId) throw new NotFoundError('license');
  await deactivateAsHolder(deps, license, { activationId });
  return { licenseId, maxMachines: license.maxMachines, data: await deps.licenses.listActivations(licenseId) };
}
