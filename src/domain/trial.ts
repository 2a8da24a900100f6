/** Free trials: one per customer e-mail and one per machine for each product. */
import type { License } from './license.ts';

/** What a trial is claimed by: the product's one trial per e-mail, and per machine. */
export const TRIAL_CLAIM_KINDS = ['email', 'machine'] as const;
export type TrialClaimKind = (typeof TRIAL_CLAIM_KINDS)[number];

/** When a trial of `trialDays` started at `startedAt` ends. */
export function trialExpiry(trialDays: number, startedAt: number): number {
  return startedAt + trialDays * 86_400_000;
}

/**
 * The customer's trial of the product that a purchase converts: not revoked (an expired trial still
 * converts: the buyer keeps its activations), the newest if there were several.
 */
export function convertibleTrial(licenses: License[], productId: string): License | null {
  const trials = licenses.filter((l) => l.trial && l.storedStatus === 'active' && l.productId === productId);
  return trials.at(-1) ?? null;
}

/**
 * A trial asked for with a publishable key: nothing is started until the code e-mailed to `email`
 * is entered (its one OTP challenge has the request's id, scope `trial`). Confirmed at most once.
 */
export interface TrialRequest {
  id: string;
  developerId: string;
  productId: string;
  /** Normalized. */
  email: string;
  machineFingerprint: string;
  name: string | null;
  createdAt: number;
  expiresAt: number;
  confirmedAt: number | null;
}

/**
 * Trial codes mailed to one address: per (address, client address) a short window, so an outsider's
 * requests from their addresses do not stop the owner's from theirs; per address a daily cap, for cost.
 */
export const TRIAL_CODE_LIMITS = [
  { per: 'email-and-client', sends: 3, windowMs: 15 * 60_000 },
  { per: 'email', sends: 10, windowMs: 24 * 60 * 60_000 },
] as const;
