import { t } from 'elysia';
import { listDeliveries, redeliverFailed, sendTestEvent } from '../../../../app/outgoing-webhooks/deliveries.ts';
import {
  createEndpoint, deleteEndpoint, endpointView, getEndpoint, listEndpoints, rotateEndpointSecret, updateEndpoint,
} from '../../../../app/outgoing-webhooks/endpoints.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { SECURITY, withSecretKey } from '../../auth.ts';
import { errorsOf, sellerGet, sellerRead } from '../../schemas.ts';
import {
  BulkRedeliverBody, BulkRedelivery, EndpointParams, NewWebhookEndpointBody, WebhookDeliveryQuery, WebhookPageQuery, RotatedWebhookSecret, WebhookDelivery, WebhookDeliveryList, WebhookEndpointChangesBody,
  WebhookEndpointList, WebhookEndpointView, WebhookEndpointWithSecret,
} from './schemas.ts';
import { idempotent, underKey } from '../../idempotency.ts';

const tags = ['Webhooks'];
const security = SECURITY.secret;

/**
 * A seller's webhook endpoints, everything under /developers/webhook-endpoints: the endpoints, their
 * delivery logs and test events (docs/webhooks.md). Secret keys only; another seller's endpoint is 404.
 */
export function webhookEndpointRoutes(deps: Deps) {
  return withSecretKey(deps)
    .post('/developers/webhook-endpoints', async ({ caller, body, set, request }) => {
      set.status = 201;
      return underKey(request, () => createEndpoint(deps, caller.developerId, body));
    }, {
      body: NewWebhookEndpointBody,
      ...idempotent(deps, {
        kind: 'webhook_endpoint',
        status: 201,
        // The secret is kept sealed with the endpoint: the answer shows it again, as the first did.
        answer: async (id, { caller }) => {
          const endpoint = caller && (await deps.webhookEndpoints.get(caller.developerId, id));
          return endpoint && { ...endpointView(endpoint), secret: deps.webhookSecrets.unseal(endpoint.sealedSecret).current };
        },
      }),
      response: { 201: WebhookEndpointWithSecret, ...errorsOf(400, 401, 403, 409, 413) },
      detail: {
        tags, security, summary: 'Register a webhook endpoint',
        description: 'Events are POSTed to it signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature v1). ' +
          'The secret is shown in this answer only. At most 20 endpoints (409 conflict).',
      },
    })
    .get('/developers/webhook-endpoints', async ({ caller, query }) => {
      const page = await listEndpoints(deps, caller.developerId, query);
      return { data: page.data.map(endpointView), hasMore: page.hasMore };
    }, sellerRead(WebhookPageQuery, WebhookEndpointList, { tags, summary: 'List webhook endpoints, oldest first', description: 'Never their secrets.' }))
    .get('/developers/webhook-endpoints/:id', async ({ caller, params }) => endpointView(await getEndpoint(deps, caller.developerId, params.id)), sellerGet(EndpointParams, WebhookEndpointView, { tags, summary: 'A webhook endpoint' }))
    .patch('/developers/webhook-endpoints/:id', async ({ caller, params, body }) => updateEndpoint(deps, caller.developerId, params.id, body), {
      params: EndpointParams,
      body: WebhookEndpointChangesBody,
      response: { 200: WebhookEndpointView, ...errorsOf(400, 401, 403, 404, 413) },
      detail: {
        tags, security, summary: 'Change a webhook endpoint',
        description: 'enabled: false stops deliveries (pending ones are given up, and can be redelivered from the log); true resumes and clears disabledReason and failingSince.',
      },
    })
    .delete('/developers/webhook-endpoints/:id', async ({ caller, params }) => {
      await deleteEndpoint(deps, caller.developerId, params.id);
      return { id: params.id, deleted: true as const };
    }, {
      params: EndpointParams,
      response: { 200: t.Object({ id: t.String(), deleted: t.Literal(true) }), ...errorsOf(400, 401, 403, 404, 413) },
      detail: { tags, security, summary: 'Delete a webhook endpoint', description: 'Gone for good, with its delivery log. To pause it instead, PATCH enabled: false.' },
    })
    .post('/developers/webhook-endpoints/:id/rotate-secret', async ({ caller, params }) => rotateEndpointSecret(deps, caller.developerId, params.id), {
      params: EndpointParams,
      response: { 200: RotatedWebhookSecret, ...errorsOf(400, 401, 403, 404, 413) },
      detail: {
        tags, security, summary: 'Rotate a webhook endpoint’s secret',
        description: 'A new secret, shown once. For 24 hours messages carry two v1 signatures, by the new and the old secret, so the receiver can switch without losing one.',
      },
    })
    .get('/developers/webhook-endpoints/:id/deliveries', ({ caller, params, query }) => listDeliveries(deps, caller.developerId, params.id, query), {
      params: EndpointParams,
      query: WebhookDeliveryQuery,
      response: { 200: WebhookDeliveryList, ...errorsOf(400, 401, 403, 404) },
      detail: { tags, security, summary: 'An endpoint’s delivery log, newest first', description: 'Each delivery with its status, attempts and last answer; status=pending|succeeded|failed lists only those; GET /developers/webhook-deliveries/{id} has every attempt.' },
    })
    .post('/developers/webhook-endpoints/:id/redeliver', ({ caller, params, body }) => redeliverFailed(deps, caller.developerId, params.id, body), {
      params: EndpointParams,
      body: BulkRedeliverBody,
      response: { 200: BulkRedelivery, ...errorsOf(400, 401, 403, 404, 409, 413) },
      detail: {
        tags, security, summary: 'Deliver again every delivery that failed for good in a time range',
        description: 'The endpoint’s deliveries that failed for good and were created in [from, to) (Unix ms, at most 31 days apart) go back to pending, due now, oldest first: at most 500 per call, hasMore says to call again. Only failed ones are taken, each once per call, so repeating a call after an outage is harmless (what it already took is pending or delivered). Each keeps its webhook-id: receivers deduplicate by it. 409 conflict while the endpoint is disabled: enable it first.',
      },
    })
    .post('/developers/webhook-endpoints/:id/test', ({ caller, params }) => sendTestEvent(deps, caller.developerId, params.id), {
      params: EndpointParams,
      response: { 200: WebhookDelivery, ...errorsOf(400, 401, 403, 404, 409, 413) },
      detail: { tags, security, summary: 'Send a test event', description: 'A webhook.test event to this endpoint only, delivered like any other (signed, retried, logged).' },
    });
}
