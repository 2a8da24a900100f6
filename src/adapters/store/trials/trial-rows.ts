import type { Activation } from '../../../domain/activation.ts';
import type { TrialClaimKind } from '../../../domain/trial.ts';
import type { NewTrial, TrialOutcome } from '../../../ports/trial-repository.ts';

/** Thrown inside a trial's transaction to roll it back: the claim was someone else's. */
export class ClaimTaken extends Error {
  constructor(readonly by: TrialClaimKind) {
    super(`trial already claimed by ${by}`);
  }
}

/** A trial's transaction run; a claim someone else holds comes back as the outcome `claimed`. */
export async function startOrClaimed(transaction: () => TrialOutcome | Promise<TrialOutcome>): Promise<TrialOutcome> {
  try {
    return await transaction();
  } catch (error) {
    if (error instanceof ClaimTaken) return { kind: 'claimed', by: error.by };
    throw error;
  }
}

/** The trial's first activation, on the machine that asked for it. */
export function firstActivation(trial: NewTrial, licenseId: string): Activation {
  const { id, machineFingerprint, name, at } = trial.machine;
  return { id, licenseId, machineFingerprint, name, createdAt: at, lastSeenAt: at };
}
