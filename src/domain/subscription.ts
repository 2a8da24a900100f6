import type { ProcessorKind } from './checkout-session.ts';
import type { BillingInterval } from './product.ts';

export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** What one run of the sandbox's billing clock did to a subscription. */
export const RENEWAL_OUTCOMES = ['renewed', 'payment_failed', 'canceled'] as const;
export type RenewalOutcome = (typeof RENEWAL_OUTCOMES)[number];

/**
 * A recurring product's subscription at its processor (a Stripe subscription on the seller's
 * account, or the sandbox's): each paid period extends the one license it renews.
 */
export interface Subscription {
  id: string;
  developerId: string;
  customerId: string;
  productId: string;
  licenseId: string;
  processor: ProcessorKind;
  processorSubscriptionId: string;
  /** `canceled` is final: nothing the processor says afterwards revives it. */
  status: SubscriptionStatus;
  interval: BillingInterval;
  /** The end of the processor's current period, never moved backwards (events arrive in any order). */
  currentPeriodEnd: number;
  /** Cancelled by the buyer or the seller: it runs to currentPeriodEnd and is not billed again. */
  cancelAtPeriodEnd: boolean;
  /**
   * The end of its free trial (null = none): it was bought without a charge, its license is a trial
   * until then, and its first charge is at this time (the first period's end). Fixed when recorded.
   */
  trialEnd: number | null;
  createdAt: number;
  /** When the processor's state held here was current: older news never overrides newer. */
  updatedAt: number;
  canceledAt: number | null;
}

/**
 * A subscription as its seller's API answers it and its events carry it: with the e-mail of the
 * customer who pays for it, every field but the developer and `updatedAt` (the processor's time of
 * the news held, the ordering rule's, which the sandbox clock may put in the future).
 */
export type SubscriptionView = Omit<Subscription, 'developerId' | 'updatedAt'> & { customerEmail: string };

export function viewSubscription({ developerId: _d, updatedAt: _u, ...view }: Subscription & { customerEmail: string }): SubscriptionView {
  return view;
}

/**
 * What the processor says about a subscription as of `asOf` (its event's time). Status and
 * cancelAtPeriodEnd apply only when not older than what is held; the period end only ever grows;
 * `canceled` applies whenever it arrives and stays.
 */
export interface SubscriptionChange {
  status?: SubscriptionStatus;
  currentPeriodEnd?: number;
  cancelAtPeriodEnd?: boolean;
  asOf: number;
}

const DAY_MS = 86_400_000;

/** The license of a period paid for lasts to the period's end plus the product's grace days. */
export function paidThrough(periodEnd: number, graceDays: number): number {
  return periodEnd + graceDays * DAY_MS;
}

/**
 * One billing interval after `from`, on the calendar (UTC): 31 January + a month is the last day
 * of February, as processors bill it, not 3 March.
 */
export function periodEndAfter(from: number, interval: BillingInterval): number {
  const date = new Date(from);
  const day = date.getUTCDate();
  const months = interval === 'month' ? 1 : 12;
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}

/** The rule every store applies in one conditional update (written there in SQL). */
export function applySubscriptionChange(current: Subscription, change: SubscriptionChange): Subscription {
  if (current.status === 'canceled') {
    return { ...current, currentPeriodEnd: Math.max(current.currentPeriodEnd, change.currentPeriodEnd ?? 0) };
  }
  const fresh = change.asOf >= current.updatedAt;
  const canceling = change.status === 'canceled';
  return {
    ...current,
    status: canceling || (fresh && change.status) ? change.status! : current.status,
    cancelAtPeriodEnd: fresh && change.cancelAtPeriodEnd !== undefined ? change.cancelAtPeriodEnd : current.cancelAtPeriodEnd,
    currentPeriodEnd: Math.max(current.currentPeriodEnd, change.currentPeriodEnd ?? 0),
    updatedAt: Math.max(current.updatedAt, change.asOf),
    canceledAt: canceling ? change.asOf : null,
  };
}
