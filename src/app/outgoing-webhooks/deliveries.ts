import { ConflictError, InvalidRequestError, NotFoundError } from '../../domain/errors.ts';
import type { Deps } from '../../ports/deps.ts';
import type { DeliveryStatus, DeliveryView } from '../../ports/outbox-repository.ts';
import { WEBHOOK_LIMITS } from '../../domain/webhook-endpoint.ts';
import { getEndpoint } from './endpoints.ts';
import { pageLimit } from './pages.ts';

type LogDeps = Pick<Deps, 'clock' | 'webhookEndpoints' | 'outbox'>;

/** An endpoint's delivery log, newest first; only the deliveries in `status` when given. */
export async function listDeliveries(deps: LogDeps, developerId: string, endpointId: string, page: { limit?: number; startingAfter?: string; status?: DeliveryStatus }) {
  await getEndpoint(deps, developerId, endpointId);
  const limit = pageLimit(page.limit);
  if (page.startingAfter !== undefined) {
    const cursor = await deps.outbox.getDelivery(developerId, page.startingAfter);
    if (!cursor || cursor.endpointId !== endpointId) throw new InvalidRequestError('startingAfter is not a delivery of this endpoint.', 'startingAfter', 'query');
  }
  return deps.outbox.listDeliveries(developerId, endpointId, { limit, startingAfter: page.startingAfter, status: page.status });
}

export async function getDelivery(deps: LogDeps, developerId: string, id: string) {
  const delivery = await deps.outbox.getDelivery(developerId, id);
  if (!delivery) throw new NotFoundError('webhook delivery');
  return delivery;
}

/**
 * Sends it again, due now, whatever its state (also after it failed for good); a failure then
 * continues its schedule where it stood (a delivery whose schedule is spent gets this one try).
 * A disabled endpoint must be enabled first: nothing is sent to it.
 */
export async function redeliver(deps: LogDeps, developerId: string, id: string): Promise<DeliveryView> {
  const delivery = await getDelivery(deps, developerId, id);
  const endpoint = await deps.webhookEndpoints.get(developerId, delivery.endpointId);
  if (!endpoint) throw new NotFoundError('webhook delivery');
  if (!endpoint.enabled) throw new ConflictError('conflict', 'The endpoint is disabled: enable it first (PATCH enabled: true).');
  const again = await deps.outbox.redeliver(developerId, id, deps.clock.now());
  if (!again) throw new NotFoundError('webhook delivery');
  return summary(again);
}

/**
 * Every delivery of the endpoint that failed for good and was created in [from, to) (Unix ms, at most
 * 31 days apart), back to pending and due now, oldest first, at most 500 per call: `hasMore` says
 * failed ones remain (call again). Each is redelivered once per call, whatever calls run at once.
 * A disabled endpoint must be enabled first.
 */
export async function redeliverFailed(deps: LogDeps, developerId: string, endpointId: string, range: { from: number; to: number }) {
  const endpoint = await getEndpoint(deps, developerId, endpointId);
  if (range.to <= range.from) throw new InvalidRequestError('to must be after from.', 'to');
  if (range.to - range.from > WEBHOOK_LIMITS.redeliverRangeMs) throw new InvalidRequestError(`from and to may be at most ${WEBHOOK_LIMITS.redeliverRangeMs / 86_400_000} days apart.`, 'to');
  if (!endpoint.enabled) throw new ConflictError('conflict', 'The endpoint is disabled: enable it first (PATCH enabled: true).');
  return deps.outbox.redeliverFailed(developerId, endpointId, range, deps.clock.now(), WEBHOOK_LIMITS.redeliverPerCall);
}

/** A `webhook.test` event to this endpoint only (enabled or not: it is how a seller checks before enabling). */
export async function sendTestEvent(deps: LogDeps, developerId: string, endpointId: string): Promise<DeliveryView> {
  const endpoint = await getEndpoint(deps, developerId, endpointId);
  if (!endpoint.enabled) throw new ConflictError('conflict', 'The endpoint is disabled: enable it first (PATCH enabled: true).');
  const delivery = await deps.outbox.sendTest(developerId, endpointId, { endpointId, message: 'A test event: your endpoint receives and verifies webhooks.' });
  if (!delivery) throw new NotFoundError('webhook endpoint');
  return summary(delivery);
}

/** The seller's events (one license's with `licenseId`), newest first: what was (or would have been) sent. */
export async function listEvents(deps: Pick<Deps, 'outbox'>, developerId: string, page: { limit?: number; startingAfter?: string; licenseId?: string }) {
  const result = await deps.outbox.listEvents(developerId, { limit: pageLimit(page.limit), startingAfter: page.startingAfter, licenseId: page.licenseId });
  if (!result) throw new InvalidRequestError('startingAfter is not one of your events.', 'startingAfter', 'query');
  return result;
}

/** A delivery without its attempt log (the repository may hand it with one). */
function summary(delivery: DeliveryView & { attemptLog?: unknown }): DeliveryView {
  const { attemptLog: _log, ...view } = delivery;
  return view;
}
