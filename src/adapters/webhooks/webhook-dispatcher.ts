import { deliverOne, type DeliverDeps } from '../../app/outgoing-webhooks/deliver.ts';
import type { Logger } from '../system/logger.ts';
import type { StoreHealth } from '../system/store-health.ts';
import type { DeliveryOutcome, DueDelivery } from '../../ports/outbox-repository.ts';
import { ENDPOINT_DISABLED_FAILING } from '../../domain/webhook-endpoint.ts';

/** What the dispatcher counts (ServiceMetrics). */
export interface DispatcherMetrics {
  webhookDelivery(outcome: 'succeeded' | 'retrying' | 'failed'): void;
  webhookEndpointDisabled(reason: string): void;
}

export interface DispatcherOptions {
  /** Between looks at the outbox when it had nothing due (WEBHOOK_POLL_MS). */
  pollMs: number;
  /** A claim lasts this long: past it, a delivery whose sender died is claimed again (WEBHOOK_LEASE_SECONDS). */
  leaseMs: number;
  /** Deliveries in flight at once in this instance (WEBHOOK_CONCURRENCY). */
  concurrency: number;
}

export interface Dispatcher {
  /** Looks at the outbox now rather than at the next poll. */
  nudge(): void;
  /** Claims nothing more; resolves once the deliveries in flight are recorded. */
  stop(): Promise<void>;
}

/**
 * The sender that runs in every instance: claims due deliveries as a lease, up to `concurrency` in
 * flight, and looks again as soon as one finishes or, when nothing was due, after `pollMs`.
 * Instances need no coordination: the store hands each delivery to one claimant at a time.
 */
export function startWebhookDispatcher(given: DeliverDeps, log: Logger, options: DispatcherOptions, metrics?: DispatcherMetrics, health?: StoreHealth): Dispatcher {
  // A delivery that fails for good and an endpoint disabled are each logged once and counted.
  const settled = (delivery: DueDelivery, outcome: DeliveryOutcome, endpointDisabled: boolean) => {
    metrics?.webhookDelivery(outcome.status === 'pending' ? 'retrying' : outcome.status);
    if (outcome.status === 'failed') {
      log.warn('webhook delivery failed for good', { deliveryId: delivery.id, endpointId: delivery.endpointId, eventId: delivery.event.id, eventType: delivery.event.type, attempts: delivery.attempts + 1 });
    }
    if (endpointDisabled) {
      metrics?.webhookEndpointDisabled('failing');
      log.warn('webhook endpoint disabled', { endpointId: delivery.endpointId, reason: ENDPOINT_DISABLED_FAILING });
    }
    given.settled?.(delivery, outcome, endpointDisabled);
  };
  const deps: DeliverDeps = { ...given, settled };
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let wake: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, ms);
    }).finally(() => {
      wake = null;
      if (timer) clearTimeout(timer);
    });

  const attempt = (delivery: Parameters<typeof deliverOne>[1]) => {
    const running: Promise<void> = deliverOne(deps, delivery)
      .then(() => {}, (error) => log.warn('webhook delivery not recorded; it is retried once its claim runs out', { deliveryId: delivery.id, error: firstLine(error) }))
      .finally(() => {
        inFlight.delete(running);
        wake?.();
      });
    inFlight.add(running);
  };

  const loop = async () => {
    while (!stopped) {
      const room = options.concurrency - inFlight.size;
      let claimed = 0;
      if (room > 0) {
        try {
          const due = await deps.outbox.claimDue(deps.clock.now(), options.leaseMs, room);
          claimed = due.length;
          for (const delivery of due) attempt(delivery);
        } catch (error) {
          // The store down is one line per outage (StoreHealth), not one per poll.
          if (!health?.tookStoreFailure(error)) log.warn('webhook outbox unreachable; trying again', { error: firstLine(error) });
        }
      }
      if (!stopped && (claimed === 0 || inFlight.size >= options.concurrency)) await sleep(options.pollMs);
    }
  };
  const running = loop();
  return {
    nudge: () => wake?.(),
    async stop() {
      stopped = true;
      wake?.();
      await running;
      await Promise.all(inFlight);
    },
  };
}

/** The first line only: a failed query's later lines carry its parameters. */
function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0]!.slice(0, 200);
}
