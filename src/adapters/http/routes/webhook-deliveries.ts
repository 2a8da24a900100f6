import { getDelivery, listDeliveries, listEvents, redeliver, sendTestEvent } from '../../../app/outgoing-webhooks/deliveries.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withSecretKey } from '../auth.ts';
import { errorsOf } from '../schemas.ts';
import { DeliveryParams, EndpointParams, OutgoingEventList, PageQuery, WebhookDelivery, WebhookDeliveryDetail, WebhookDeliveryList } from '../webhook-endpoint-schemas.ts';

const tags = ['Webhooks'];
const security = SECURITY.secret;

/** The delivery log, manual redelivery, test events and the event list (docs/webhooks.md). */
export function webhookDeliveryRoutes(deps: Deps) {
  return withSecretKey(deps)
    .get('/developers/webhook-endpoints/:id/deliveries', ({ caller, params, query }) => listDeliveries(deps, caller.developerId, params.id, query), {
      params: EndpointParams,
      query: PageQuery,
      response: { 200: WebhookDeliveryList, ...errorsOf(400, 401, 403, 404) },
      detail: { tags, security, summary: 'An endpoint’s delivery log, newest first', description: 'Each delivery with its status, attempts and last answer; GET /developers/webhook-deliveries/{id} has every attempt.' },
    })
    .post('/developers/webhook-endpoints/:id/test', ({ caller, params }) => sendTestEvent(deps, caller.developerId, params.id), {
      params: EndpointParams,
      response: { 200: WebhookDelivery, ...errorsOf(400, 401, 403, 404, 409, 413) },
      detail: { tags, security, summary: 'Send a test event', description: 'A webhook.test event to this endpoint only, delivered like any other (signed, retried, logged).' },
    })
    .get('/developers/webhook-deliveries/:id', ({ caller, params }) => getDelivery(deps, caller.developerId, params.id), {
      params: DeliveryParams,
      response: { 200: WebhookDeliveryDetail, ...errorsOf(400, 401, 403, 404) },
      detail: { tags, security, summary: 'A delivery with every attempt' },
    })
    .post('/developers/webhook-deliveries/:id/redeliver', ({ caller, params }) => redeliver(deps, caller.developerId, params.id), {
      params: DeliveryParams,
      response: { 200: WebhookDelivery, ...errorsOf(400, 401, 403, 404, 409, 413) },
      detail: {
        tags, security, summary: 'Deliver again',
        description: 'Back to pending and due now, even after it failed for good (the same webhook-id: receivers deduplicate by it). 409 conflict while the endpoint is disabled.',
      },
    })
    .get('/developers/events', async ({ caller, query }) => listEvents(deps, caller.developerId, query), {
      query: PageQuery,
      response: { 200: OutgoingEventList, ...errorsOf(400, 401, 403) },
      detail: { tags, security, summary: 'Your events, newest first', description: 'Every event written for you (kept 30 days), whether or not an endpoint received it.' },
    });
}
