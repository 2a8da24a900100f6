import { getDelivery, listEvents, redeliver } from '../../../../app/outgoing-webhooks/deliveries.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { SECURITY, withSecretKey } from '../../auth.ts';
import { errorsOf, sellerGet, sellerRead } from '../../schemas.ts';
import { DeliveryParams, EventListQuery, OutgoingEventList, WebhookDelivery, WebhookDeliveryDetail } from './schemas.ts';

const tags = ['Webhooks'];
const security = SECURITY.secret;

/** A delivery with its attempts, manual redelivery, and the event list (docs/webhooks.md). */
export function webhookDeliveryRoutes(deps: Deps) {
  return withSecretKey(deps)
    .get('/developers/webhook-deliveries/:id', ({ caller, params }) => getDelivery(deps, caller.developerId, params.id), sellerGet(DeliveryParams, WebhookDeliveryDetail, { tags, summary: 'A delivery with every attempt' }))
    .post('/developers/webhook-deliveries/:id/redeliver', ({ caller, params }) => redeliver(deps, caller.developerId, params.id), {
      params: DeliveryParams,
      response: { 200: WebhookDelivery, ...errorsOf(400, 401, 403, 404, 409, 413) },
      detail: {
        tags, security, summary: 'Deliver again',
        description: 'Back to pending and due now, even after it failed for good (the same webhook-id: receivers deduplicate by it). 409 conflict while the endpoint is disabled.',
      },
    })
    .get('/developers/events', async ({ caller, query }) => listEvents(deps, caller.developerId, query), sellerRead(EventListQuery, OutgoingEventList, {
      tags, summary: 'Your events, newest first',
      description: 'Every event written for you (kept 30 days), whether or not an endpoint received it. licenseId: only the events about that license (its history: created, renewed, revoked, machines, orders and refunds); another seller’s license finds nothing. Cursor pagination: pass the last id as startingAfter while hasMore.',
    }));
}
