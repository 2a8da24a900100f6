import { hasFreeSlot, nextDeactivationAt } from '../../domain/activation.ts';
import type { ActivateOutcome, ActivationSelector, DeactivateOutcome, DeactivationQuota, NewActivation } from '../../ports/license-repository.ts';
import type { LicenseRow } from './memory-tables.ts';
import { claimKey } from './memory-trial-repository.ts';

// Plain functions over one license row, with no await between a check and its write: the memory
// store's equivalent of one transaction.

/** `trialClaims`: the store's (see memory-trial-repository.ts); a trial's new machine must claim its trial there. */
export function activateIn(row: LicenseRow | undefined, input: NewActivation, trialClaims?: Map<string, string>): ActivateOutcome {
  if (!row) return { kind: 'missing' };
  const known = row.activations.find((a) => a.machineFingerprint === input.machineFingerprint);
  if (known) return { kind: 'existing', activation: { ...known } };
  if (!hasFreeSlot(row.activations.length, row.maxMachines)) {
    return { kind: 'full', maxMachines: row.maxMachines, activations: row.activations.map((a) => ({ ...a })) };
  }
  if (row.trial && trialClaims) {
    const claim = claimKey(row.productId, 'machine', input.machineFingerprint);
    const holder = trialClaims.get(claim);
    if (holder !== undefined && holder !== row.id) return { kind: 'trial_used' };
    trialClaims.set(claim, row.id);
  }
  const activation = { id: input.id, licenseId: row.id, machineFingerprint: input.machineFingerprint, name: input.name, createdAt: input.at, lastSeenAt: input.at };
  row.activations.push(activation);
  return { kind: 'created', activation: { ...activation } };
}

export function deactivateIn(row: LicenseRow | undefined, which: ActivationSelector, quota?: DeactivationQuota): DeactivateOutcome {
  if (!row) return { kind: 'missing' };
  const index = row.activations.findIndex((a) =>
    'activationId' in which ? a.id === which.activationId : a.machineFingerprint === which.machineFingerprint,
  );
  if (index < 0) return { kind: 'missing' };
  if (quota) {
    const retryAt = nextDeactivationAt(row.deactivatedAt, quota.limit, quota.now, quota.windowMs);
    if (retryAt !== null) return { kind: 'quota_exhausted', retryAt };
    row.deactivatedAt.push(quota.now);
  }
  const [removed] = row.activations.splice(index, 1);
  return { kind: 'removed', activation: { ...removed! } };
}
