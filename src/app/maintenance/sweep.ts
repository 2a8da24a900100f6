import { DEACTIVATION_WINDOW_MS } from '../../domain/activation.ts';
import { OTP_LIMITS } from '../../domain/otp-challenge.ts';
import type { Deps } from '../../ports/deps.ts';

const DAY_MS = 86_400_000;

/**
 * How long each kind of short-lived record is kept, counted from the moment it stopped being
 * usable. Nothing here is needed once that time has passed: the periods only leave room for
 * support questions, late webhooks and the send limits that count recent codes.
 */
export const RETENTION_MS = {
  /** After expiry; never less than the send-limit window that counts a subject's recent codes. */
  otpChallenges: Math.max(DAY_MS, OTP_LIMITS.sendWindowMs),
  /** After expiry or revocation, whichever comes first. */
  identityTokens: 7 * DAY_MS,
  /** After expiry (10 minutes after the connect flow began). */
  connectStates: DAY_MS,
  /** After sending: the sandbox outbox's messages. */
  outboxMessages: DAY_MS,
  /** After keeping: the sandbox's kept mail. */
  sandboxMail: DAY_MS,
  /** After sending (or giving up): the mail outbox's rows, which the daily resend limit counts. */
  sentMail: 7 * DAY_MS,
  /** After creation: terminal purchases still pending (never charged) and without a license. */
  abandonedPurchases: DAY_MS,
  /** After expiry: trial requests (the trial, once confirmed, is a license of its own). */
  trialRequests: DAY_MS,
  /** After expiry: checkout sessions never completed; Stripe stops retrying webhooks after 3 days. */
  unpaidCheckouts: 30 * DAY_MS,
  /**
   * After receipt: the ids of incoming Stripe events, kept so a redelivery is not processed twice.
   * Stripe redelivers for 3 days; a month leaves room for a replay from its dashboard.
   */
  incomingWebhookEvents: 30 * DAY_MS,
  /** After expiry (24 hours after first use): Idempotency-Key records. */
  idempotencyKeys: 0,
  /**
   * After the last attempt or reset, once any lock has run out as long ago: a customer's (or an
   * unknown e-mail's) count of failed codes. A lock lasts an hour; a month without an attempt
   * forgives the few failures short of one, and a row lives no longer than that key is in use.
   */
  loginFailures: 30 * DAY_MS,
  /** After removal: holders' deactivations, which the rolling quota reads; one day past its window. */
  deactivations: DEACTIVATION_WINDOW_MS + DAY_MS,
  /** After expiry or revocation: seller console sessions (docs/console-sign-in.md). */
  consoleSessions: 7 * DAY_MS,
  /** After expiry: passkey ceremonies' challenges. */
  webauthnChallenges: 0,
  /**
   * After expiry: floating leases (docs/leases.md), each with its lease.expired event. An expired
   * lease already counts for nothing, so the sweep frees no seat: it only tidies and announces.
   */
  leases: 0,
} as const;

export type SweptKind = keyof typeof RETENTION_MS;
export type SweepReport = Record<SweptKind, number>;

export interface SweepOptions {
  /** Rows per DELETE: short statements, so requests waiting on the store are not held up. */
  batchSize: number;
  /** Batches per kind and run: a backlog is worked off over several runs. */
  maxBatches: number;
}

export const DEFAULT_SWEEP: SweepOptions = { batchSize: 500, maxBatches: 20 };

type SweepDeps = Pick<Deps, 'clock' | 'otps' | 'licenses' | 'identityTokens' | 'connections' | 'smsOutbox' | 'purchases' | 'checkouts' | 'sandboxMail' | 'mailOutbox' | 'trialRequests' | 'incomingWebhookEvents' | 'idempotencyKeys' | 'consoleSessions' | 'passkeys' | 'leases'>;

/**
 * Deletes every record past its retention period, in batches. Idempotent and safe to run from
 * several instances at once: each batch is one conditional DELETE, so a row goes once.
 */
export async function sweepExpired(deps: SweepDeps, options: SweepOptions = DEFAULT_SWEEP): Promise<SweepReport> {
  const now = deps.clock.now();
  const cutoff = (kind: SweptKind) => now - RETENTION_MS[kind];
  const deleters: Record<SweptKind, (before: number, limit: number) => Promise<number>> = {
    otpChallenges: (b, l) => deps.otps.deleteExpired(b, l),
    identityTokens: (b, l) => deps.identityTokens.deleteEnded(b, l),
    connectStates: (b, l) => deps.connections.deleteExpiredStates(b, l),
    outboxMessages: (b, l) => deps.smsOutbox.deleteSentBefore(b, l),
    sandboxMail: (b, l) => deps.sandboxMail.deleteSentBefore(b, l),
    sentMail: (b, l) => deps.mailOutbox.deleteDoneBefore(b, l),
    abandonedPurchases: (b, l) => deps.purchases.deleteAbandoned(b, l),
    trialRequests: (b, l) => deps.trialRequests.deleteExpired(b, l),
    unpaidCheckouts: (b, l) => deps.checkouts.deleteUnpaid(b, l),
    incomingWebhookEvents: (b, l) => deps.incomingWebhookEvents.deleteReceivedBefore(b, l),
    idempotencyKeys: (b, l) => deps.idempotencyKeys.deleteExpired(b, l),
    loginFailures: (b, l) => deps.otps.deleteIdleLoginFailures(b, l),
    deactivations: (b, l) => deps.licenses.deleteDeactivationsBefore(b, l),
    consoleSessions: (b, l) => deps.consoleSessions.deleteEnded(b, l),
    webauthnChallenges: (b, l) => deps.passkeys.deleteExpiredChallenges(b, l),
    leases: (b, l) => deps.leases.deleteExpired(b, l),
  };
  const report = {} as SweepReport;
  for (const kind of Object.keys(deleters) as SweptKind[]) {
    report[kind] = await inBatches((limit) => deleters[kind](cutoff(kind), limit), options);
  }
  return report;
}

/** Runs a batch (which answers how many rows it took) until one comes back short or maxBatches have run. */
export async function inBatches(batch: (limit: number) => Promise<number>, options: SweepOptions): Promise<number> {
  let total = 0;
  for (let i = 0; i < options.maxBatches; i++) {
    const done = await batch(options.batchSize);
    total += done;
    if (done < options.batchSize) break;
  }
  return total;
}
