/**
 * Activations: the machines a license runs on, one per fingerprint, at most `maxMachines` of them
 * (null = unlimited). Holders may deactivate a machine a few times per rolling 30 days; the seller
 * may remove any at any time.
 */
export interface Activation {
  id: string;
  licenseId: string;
  machineFingerprint: string;
  /** A human name the client chose, e.g. the host name. */
  name: string | null;
  createdAt: number;
  lastSeenAt: number;
}

/** What validation needs of an activation: which machine, and when it was last seen (to refresh it rarely). */
export interface ActivationSeen {
  machineFingerprint: string;
  lastSeenAt: number;
}

export const ACTIVATION_LIMITS = { maxMachinesMax: 1000, nameMax: 100, deactivationsMax: 1000 };

/** What a seller reads when a bound is refused, wherever it is refused (schema or use case). */
export const ACTIVATION_MESSAGES = {
  maxMachines: `maxMachines must be a whole number from 1 to ${ACTIVATION_LIMITS.maxMachinesMax}, or null for unlimited.`,
  deactivations: `deactivationsPer30Days must be a whole number from 0 to ${ACTIVATION_LIMITS.deactivationsMax} (0: only the seller removes machines).`,
};
export const DEFAULT_MAX_MACHINES = 1;
export const DEFAULT_DEACTIVATIONS_PER_30_DAYS = 3;
export const DEACTIVATION_WINDOW_MS = 30 * 86_400_000;
/** lastSeenAt is refreshed by validation at most this often per activation: a write per validation would cost the hot path. */
export const LAST_SEEN_REFRESH_MS = 3_600_000;

/** Whether one more machine fits. A limit lowered below the count keeps the machines there; none is added until enough leave. */
export function hasFreeSlot(count: number, maxMachines: number | null): boolean {
  return maxMachines === null || count < maxMachines;
}

export function maxMachinesProblem(value: number | null): string | null {
  if (value === null) return null;
  if (!Number.isSafeInteger(value) || value < 1 || value > ACTIVATION_LIMITS.maxMachinesMax)
    return ACTIVATION_MESSAGES.maxMachines;
  return null;
}

export function deactivationsProblem(value: number): string | null {
  if (!Number.isSafeInteger(value) || value < 0 || value > ACTIVATION_LIMITS.deactivationsMax)
    return ACTIVATION_MESSAGES.deactivations;
  return null;
}

/**
 * The holder's deactivation quota: `limit` per rolling window. Given when the earlier deactivations
 * happened, returns null when one more is allowed at `now`, or the moment the next one will be.
 * A deactivation counts while `now - at < window`.
 */
export function nextDeactivationAt(past: readonly number[], limit: number, now: number, windowMs = DEACTIVATION_WINDOW_MS): number | null {
  const inWindow = past.filter((at) => now - at < windowMs).sort((a, b) => a - b);
  if (inWindow.length < limit) return null;
  // One frees up when all but limit-1 of them have left the window.
  const freeing = inWindow[inWindow.length - limit];
  return freeing === undefined ? Number.POSITIVE_INFINITY : freeing + windowMs;
}

/**
 * The activation a machine's legacy fingerprint holds, when the machine's current fingerprint holds
 * none (docs/machine-files.md, "Migration"): it moves to the current one, keeping its slot.
 */
export function movable<A extends { machineFingerprint: string }>(held: readonly A[], input: { machineFingerprint: string; legacyFingerprint?: string }): A | undefined {
  const { machineFingerprint, legacyFingerprint } = input;
  if (legacyFingerprint === undefined || legacyFingerprint === machineFingerprint || held.some((a) => a.machineFingerprint === machineFingerprint)) return undefined;
  return held.find((a) => a.machineFingerprint === legacyFingerprint);
}
