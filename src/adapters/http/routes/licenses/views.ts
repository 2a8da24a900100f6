import type { ActivationList } from '../../../../app/licenses/seller-activations.ts';
import type { Activation } from '../../../../domain/activation.ts';

/** What an answer shows of an activation: never the store's own fields (license id, developer id). */
export const publicActivation = ({ id, name, machineFingerprint, createdAt, lastSeenAt }: Activation) => ({ id, name, machineFingerprint, createdAt, lastSeenAt });
export const publicList = (list: ActivationList) => ({ licenseId: list.licenseId, maxMachines: list.maxMachines, data: list.data.map(publicActivation) });
