import type { ActivationList } from '../../../../app/licenses/seller-activations.ts';
import type { Activation } from '../../../../domain/activation.ts';
import { viewLicense } from '../../../../domain/license.ts';
import type { Deps } from '../../../../ports/deps.ts';
import type { Rebuild } from '../../idempotency.ts';

/** What an answer shows of an activation: never the store's own fields (license id, developer id). */
export const publicActivation = ({ id, name, machineFingerprint, createdAt, lastSeenAt }: Activation) => ({ id, name, machineFingerprint, createdAt, lastSeenAt });
export const publicActivationList = (list: ActivationList) => ({ licenseId: list.licenseId, maxMachines: list.maxMachines, data: list.data.map(publicActivation) });

/**
 * An issued license's answer again ({license, licenseKey}), from the license a keyed request stored
 * before its process died (a grant, a confirmed purchase).
 */
export function issuedAgain(deps: Pick<Deps, 'licenses' | 'clock'>, status: number): Rebuild {
  return {
    kind: 'license',
    status,
    async answer(id) {
      const license = await deps.licenses.findById(id);
      return license && { license: viewLicense(license, deps.clock.now()), licenseKey: license.licenseKey };
    },
  };
}
