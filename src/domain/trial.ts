/** Free trials: one per customer e-mail and one per machine for each product. */
import type { License } from './license.ts';
import type { Product } from './product.ts';

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
  // A subscription's trial is its own: its first charge converts it, not another purchase.
  const trials = licenses.filter((l) => l.trial && l.storedStatus === 'active' && l.productId === productId && l.subscriptionId === null);
  return trials.at(-1) ?? null;
}

/** A subscription's free trial: nothing is charged until `end`, the first charge. */
export interface SubscriptionTrial {
  /** Whole days, as processors take them (Stripe's trial_period_days): a remainder counts as a day. */
  days: number;
  end: number;
}

/**
 * The free trial a recurring product bought at `now` by the holder of `held` starts with, or null
 * when it is charged at once: the product offers none; the buyer's free trial of it is running (the
 * days it has left, never a fresh trial) or has ended; or the buyer held a license of it before
 * (bought, or a trial since converted). A one-off product never starts a trial at checkout.
 */
export function subscriptionTrial(product: Pick<Product, 'id' | 'interval' | 'trialDays'>, held: License[], now: number): SubscriptionTrial | null {
  if (product.interval === null || product.trialDays === null) return null;
  const trial = convertibleTrial(held, product.id);
  if (trial) {
    if (trial.expiresAt === null || trial.expiresAt <= now) return null;
    return { days: Math.ceil((trial.expiresAt - now) / 86_400_000), end: trial.expiresAt };
  }
  if (held.some((l) => l.productId === product.id)) return null;
  return { days: product.trialDays, end: trialExpiry(product.trialDays, now) };
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
