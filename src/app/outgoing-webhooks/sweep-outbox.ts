import type { Deps } from '../../ports/deps.ts';
import { DEFAULT_SWEEP, inBatches, type SweepOptions } from '../maintenance/sweep.ts';

const DAY_MS = 86_400_000;

export const OUTBOX_TIMES = {
  /** Events, their deliveries and attempts are kept this long (the delivery log a seller reads). */
  eventRetentionMs: 30 * DAY_MS,
  /**
   * A pending checkout is announced as expired this long after its expiry: the first status poll
   * past expiry still asks the processor once (a payment in the last seconds), and would not once
   * the session is recorded as expired.
   */
  checkoutExpiryGraceMs: 3_600_000,
} as const;

export interface OutboxSweepReport {
  /** Licenses past expiry now announced (license.expired). */
  licenseExpiries: number;
  /** Trial licenses whose end is near now announced (trial.ending). */
  trialEndings: number;
  /** Checkout sessions moved to expired (checkout.expired). */
  checkoutExpiries: number;
  /** Events deleted with their deliveries and attempts. */
  outgoingEvents: number;
}

/**
 * The outbox's periodic work, in batches, idempotent and safe from several instances at once (each
 * batch is one conditional statement): announce expiries nobody polled for and trials about to end, expire checkouts nobody
 * came back to, forget old events.
 */
export async function sweepOutbox(deps: Pick<Deps, 'clock' | 'outbox'>, options: SweepOptions = DEFAULT_SWEEP): Promise<OutboxSweepReport> {
  const now = deps.clock.now();
  return {
    licenseExpiries: await inBatches((limit) => deps.outbox.announceExpiries(now, limit), options),
    trialEndings: await inBatches((limit) => deps.outbox.announceTrialEndings(now, limit), options),
    checkoutExpiries: await inBatches((limit) => deps.outbox.expireCheckouts(now - OUTBOX_TIMES.checkoutExpiryGraceMs, limit), options),
    outgoingEvents: await inBatches((limit) => deps.outbox.deleteOlderThan(now - OUTBOX_TIMES.eventRetentionMs, limit), options),
  };
}
