import { InvalidRequestError } from '../../domain/errors.ts';
import type { Deps } from '../../ports/deps.ts';
import type { MachineFilePage } from '../../ports/machine-file-repository.ts';
import { ownLicense } from '../licenses/seller-activations.ts';
import { pageLimit } from '../outgoing-webhooks/pages.ts';

/** The seller's list of a license's machine files, newest first; another seller's license is 404. */
export async function listMachineFiles(deps: Pick<Deps, 'licenses' | 'machineFiles'>, developerId: string, licenseId: string, page: { limit?: number; startingAfter?: string }): Promise<MachineFilePage> {
  await ownLicense(deps, developerId, licenseId);
  const limit = pageLimit(page.limit);
  if (page.startingAfter !== undefined && !(await deps.machineFiles.get(licenseId, page.startingAfter))) {
    throw new InvalidRequestError('startingAfter is not one of this license’s machine files.', 'startingAfter', 'query');
  }
  return deps.machineFiles.list(licenseId, { limit, startingAfter: page.startingAfter });
}
