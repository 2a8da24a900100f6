import type { WebhookDeliveryStatus } from '../domain/webhook-endpoint.ts';

/** The outbox as the dispatcher and the delivery log see it (events are written by the repositories, in the transaction of their change). */
export type DeliveryStatus = WebhookDeliveryStatus;

/** A delivery claimed for sending, with what the request needs. */
export interface DueDelivery {
  id: string;
  endpointId: string;
  url: string;
  sealedSecret: string;
  /** Attempts made before this one. */
  attempts: number;
  event: OutgoingEvent;
}

export interface OutgoingEvent {
  /** msg_…: the webhook-id, the same on every attempt. */
  id: string;
  type: string;
  data: unknown;
  createdAt: number;
}

export interface Attempt {
  at: number;
  /** The endpoint's HTTP status; null when none came (timeout, refused, blocked address). */
  status: number | null;
  error: string | null;
  durationMs: number;
}

export type DeliveryOutcome = { status: 'succeeded' } | { status: 'pending'; nextAttemptAt: number } | { status: 'failed' };

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  /** null unless pending. */
  nextAttemptAt: number | null;
  createdAt: number;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

export interface OutboxRepository {
  /**
   * Takes up to `limit` due deliveries of enabled endpoints as a lease until `now + leaseMs`: nobody
   * else claims them before then (PostgreSQL: FOR UPDATE SKIP LOCKED). A sender that dies leaves the
   * lease to run out, and the delivery is claimed again: at least once.
   */
  claimDue(now: number, leaseMs: number, limit: number): Promise<DueDelivery[]>;
  /**
   * Logs the attempt and applies its outcome to a delivery still pending (a delivery that succeeded
   * meanwhile stays succeeded), and the endpoint's health: a success clears failingSince; a failure
   * sets it if unset, and disables the endpoint (`disabledReason`) once it has failed for `disableAfterMs`
   * (`endpointDisabled`: this attempt disabled it).
   */
  recordAttempt(delivery: { id: string; endpointId: string }, attempt: Attempt, outcome: DeliveryOutcome, health: { disableAfterMs: number; disabledReason: string }): Promise<{ endpointDisabled: boolean }>;
  /** How many deliveries wait to be sent (`pending`) and how many failed for good (`failed`), all sellers together: the metrics page's outbox depth. */
  depths(): Promise<{ pending: number; failed: number }>;
  /** The endpoint's deliveries (only those in `status`, when given), newest first; `startingAfter` is a delivery id of that endpoint. */
  listDeliveries(developerId: string, endpointId: string, page: { limit: number; startingAfter?: string; status?: DeliveryStatus }): Promise<Page<DeliveryView>>;
  /**
   * Up to `limit` of the endpoint's deliveries that failed for good and were created in [from, to),
   * oldest first, back to pending and due at `now`, in one statement: each is redelivered once by a
   * call, and two calls at once never both take the same one. `hasMore`: failed ones remain in the range.
   */
  redeliverFailed(developerId: string, endpointId: string, range: { from: number; to: number }, now: number, limit: number): Promise<{ redelivered: number; hasMore: boolean }>;
  getDelivery(developerId: string, id: string): Promise<(DeliveryView & { attemptLog: Attempt[] }) | null>;
  /** Back to pending and due at `now`, whatever its status; null when the seller has no such delivery. */
  redeliver(developerId: string, id: string, now: number): Promise<DeliveryView | null>;
  /** The seller's events (only one license's with `licenseId`), newest first; null when `startingAfter` is not an event id of theirs. */
  listEvents(developerId: string, page: EventPage): Promise<Page<OutgoingEvent> | null>;
  /** Writes a `webhook.test` event delivered to this endpoint only; null when the seller has no such endpoint. */
  sendTest(developerId: string, endpointId: string, data: unknown): Promise<DeliveryView | null>;
  /** Marks up to `limit` licenses past their expiry as announced (and writes license.expired for the active ones); how many. */
  announceExpiries(now: number, limit: number): Promise<number>;
  /**
   * Marks up to `limit` trial licenses whose expiry is at most TRIAL_ENDING_NOTICE_MS after `now` as
   * announced, and writes trial.ending for those trialEnding (events.ts) accepts (an active trial
   * not yet over); how many were marked. Each expiry is announced once, however many sweeps run.
   */
  announceTrialEndings(now: number, limit: number): Promise<number>;
  /** Moves up to `limit` checkout sessions still pending past `expiredBefore` to expired (checkout.expired); how many. */
  expireCheckouts(expiredBefore: number, limit: number): Promise<number>;
  /** Retention: deletes up to `limit` events created before `before`, with their deliveries and attempts; how many events. */
  deleteOlderThan(before: number, limit: number): Promise<number>;
}

/** A page of events: `licenseId` keeps those about one license (license.*, trial.ending, activation.*, order.*, subscription.*). */
export interface EventPage {
  limit: number;
  startingAfter?: string;
  licenseId?: string;
}
