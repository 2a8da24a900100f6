import { ENDPOINT_DISABLED_FAILING, nextAttemptAt, RETRY_SCHEDULE_MS, signingSecrets, WEBHOOK_LIMITS } from '../../domain/webhook-endpoint.ts';
import type { Deps } from '../../ports/deps.ts';
import type { DeliveryOutcome, DueDelivery } from '../../ports/outbox-repository.ts';
import type { WebhookSecrets, WebhookSender } from '../../ports/webhook-secrets.ts';

export interface DeliverDeps extends Pick<Deps, 'clock' | 'outbox'> {
  sender: WebhookSender;
  secrets: WebhookSecrets;
  /** In [0, 1): the retries' jitter. */
  random: () => number;
  /** Delays between attempts (default: Standard Webhooks' schedule, about three days). */
  schedule?: readonly number[];
  /** Told each recorded attempt's outcome, and whether it disabled the endpoint (the dispatcher logs and counts them). */
  settled?: (delivery: DueDelivery, outcome: DeliveryOutcome, endpointDisabled: boolean) => void;
}

/** The body every attempt sends: the same bytes each time, so its signature differs only by timestamp. */
export function webhookBody(event: DueDelivery['event']): string {
  return JSON.stringify({ type: event.type, timestamp: new Date(event.createdAt).toISOString(), data: event.data });
}

/**
 * One attempt of a claimed delivery: signed with the endpoint's secrets (both during a rotation),
 * sent, logged. A 2xx succeeds; anything else is retried on the schedule with jitter, then fails.
 */
export async function deliverOne(deps: DeliverDeps, delivery: DueDelivery): Promise<DeliveryOutcome> {
  const now = deps.clock.now();
  const result = await deps.sender.send({
    url: delivery.url,
    messageId: delivery.event.id,
    timestampSeconds: Math.floor(now / 1000),
    body: webhookBody(delivery.event),
    secrets: signingSecrets(deps.secrets.unseal(delivery.sealedSecret), now),
  });
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  const next = ok ? null : nextAttemptAt(now, delivery.attempts + 1, deps.random(), deps.schedule ?? RETRY_SCHEDULE_MS);
  const outcome: DeliveryOutcome = ok ? { status: 'succeeded' } : next === null ? { status: 'failed' } : { status: 'pending', nextAttemptAt: next };
  const { endpointDisabled } = await deps.outbox.recordAttempt(
    delivery,
    { at: now, status: result.status, error: result.error, durationMs: result.durationMs },
    outcome,
    { disableAfterMs: WEBHOOK_LIMITS.disableAfterFailingMs, disabledReason: ENDPOINT_DISABLED_FAILING },
  );
  deps.settled?.(delivery, outcome, endpointDisabled);
  return outcome;
}

/** Claims up to `limit` due deliveries (a lease of `leaseMs`) and attempts each, all at once. */
export async function deliverDue(deps: DeliverDeps, options: { leaseMs: number; limit: number }): Promise<DeliveryOutcome[]> {
  const due = await deps.outbox.claimDue(deps.clock.now(), options.leaseMs, options.limit);
  return Promise.all(due.map((delivery) => deliverOne(deps, delivery)));
}
