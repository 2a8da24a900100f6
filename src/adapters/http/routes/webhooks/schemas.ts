import { t } from 'elysia';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS } from '../../../../domain/webhook-endpoint.ts';
import { EXAMPLE } from '../../examples.ts';
import { Id, Input, Millis, MillisOrNull, Page, PageQuery } from '../../schemas.ts';
import { literalUnion } from '../../vocabulary.ts';

/** TypeBox models of the webhook routes: outgoing (docs/webhooks.md) and Stripe's incoming events. Unknown request fields are ignored. */

const URL_EXAMPLE = 'https://app.example.com/webhooks/licensing';

const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$';

const Url = t.String({
  minLength: 1, maxLength: WEBHOOK_LIMITS.urlLength, pattern: '^\\S+$',
  description: 'Where events are POSTed: https://, no credentials, no private or loopback address; a name must resolve, and to public addresses only (checked now and before each delivery, which then connects to the address it checked).',
  'x-error': `url must be an https:// URL of at most ${WEBHOOK_LIMITS.urlLength} characters.`,
});

const EventList = t.Array(Id(), {
  minItems: 1, maxItems: 50, 'x-error': 'events must be a list of event types.',
  description: `Event types to receive; absent = every event. Known: ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
});

const Events = t.Union([EventList, t.Null()], { description: 'Event types to receive; null = every event from now on.', 'x-error': 'events must be a list of event types, or null for every event.' });

const Description = t.Union([t.String({ maxLength: WEBHOOK_LIMITS.descriptionLength, pattern: NO_CONTROL, 'x-error': `description must be at most ${WEBHOOK_LIMITS.descriptionLength} characters without control characters.` }), t.Null()]);

export const WebhookEndpoint = t.Object({
  id: t.String({ description: 'we_…' }),
  url: t.String(),
  description: t.Union([t.String(), t.Null()]),
  events: t.Union([t.Array(t.String()), t.Null()], { description: 'null = every event.' }),
  enabled: t.Boolean(),
  disabledReason: t.Union([t.String(), t.Null()], { description: '"disabled by you", or why the service disabled it (every delivery failed for 5 days).' }),
  failingSince: MillisOrNull('Since when every delivery failed; null once one succeeds.'),
  createdAt: Millis,
  updatedAt: Millis,
});

const endpointExample = {
  id: EXAMPLE.webhookEndpointId, url: URL_EXAMPLE, description: 'Production', events: ['license.created', 'license.revoked'], enabled: true,
  disabledReason: null, failingSince: null, createdAt: EXAMPLE.time, updatedAt: EXAMPLE.time,
};

const SECRET_EXAMPLE = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export const NewWebhookEndpointBody = Input({ url: Url, events: t.Optional(EventList), description: t.Optional(Description) }, {
  examples: [{ url: URL_EXAMPLE, events: ['license.created', 'license.revoked'], description: 'Production' }],
});

export const WebhookEndpointChangesBody = Input({
  url: t.Optional(Url),
  events: t.Optional(Events),
  description: t.Optional(Description),
  enabled: t.Optional(t.Boolean({ description: 'false stops deliveries (pending ones are given up, redeliverable); true resumes with new events.' })),
}, { minProperties: 1, description: 'At least one field to change.', examples: [{ description: 'Production (EU)', enabled: true }] });

export const WebhookEndpointWithSecret = t.Object({
  ...WebhookEndpoint.properties,
  secret: t.String({ description: 'whsec_…: verifies the webhook-signature header (Standard Webhooks). Shown only here.' }),
}, { examples: [{ ...endpointExample, secret: SECRET_EXAMPLE }] });

export const RotatedWebhookSecret = t.Object({
  ...WebhookEndpoint.properties,
  secret: t.String({ description: 'The new whsec_… secret. Shown only here.' }),
  previousSecretExpiresAt: Millis,
}, { examples: [{ ...endpointExample, secret: SECRET_EXAMPLE, previousSecretExpiresAt: EXAMPLE.time + WEBHOOK_LIMITS.previousSecretMs }] });

export const WebhookEndpointView = t.Object(WebhookEndpoint.properties, { examples: [endpointExample] });

export const WebhookEndpointList = Page(WebhookEndpoint);

const Status = literalUnion(WEBHOOK_DELIVERY_STATUSES);

const deliveryFields = {
  id: t.String({ description: 'del_…' }),
  eventId: t.String({ description: 'msg_…: the webhook-id header, the same on every attempt.' }),
  eventType: t.String(),
  endpointId: t.String(),
  status: Status,
  attempts: t.Number(),
  lastAttemptAt: MillisOrNull(),
  lastStatus: t.Union([t.Number(), t.Null()], { description: 'The endpoint’s HTTP status; null when none came (timeout, refused, blocked address).' }),
  lastError: t.Union([t.String(), t.Null()]),
  nextAttemptAt: MillisOrNull('null unless pending.'),
  createdAt: Millis,
};

const deliveryExample = {
  id: EXAMPLE.webhookDeliveryId, eventId: EXAMPLE.eventId, eventType: 'license.created', endpointId: EXAMPLE.webhookEndpointId, status: 'succeeded',
  attempts: 1, lastAttemptAt: EXAMPLE.time, lastStatus: 200, lastError: null, nextAttemptAt: null, createdAt: EXAMPLE.time,
};

export const WebhookDelivery = t.Object(deliveryFields, { examples: [deliveryExample] });

export const WebhookDeliveryList = Page(t.Object(deliveryFields));

export const WebhookDeliveryDetail = t.Object({
  ...deliveryFields,
  attemptLog: t.Array(t.Object({ at: Millis, status: t.Union([t.Number(), t.Null()]), error: t.Union([t.String(), t.Null()]), durationMs: t.Number() }), { description: 'Oldest first.' }),
}, { examples: [{ ...deliveryExample, attemptLog: [{ at: EXAMPLE.time, status: 200, error: null, durationMs: 84 }] }] });

export const OutgoingEventList = Page(t.Object({ id: t.String({ description: 'msg_…' }), type: t.String(), data: t.Unknown(), createdAt: Millis }));

export const WebhookPageQuery = PageQuery('The last id of the previous page.');

export const EventListQuery = Input({
  ...WebhookPageQuery.properties,
  licenseId: t.Optional(Id({
    description: 'Only the events about this license: license.*, trial.ending, activation.*, order.* and the subscription.* of the subscription renewing it (a license’s history, kept 30 days like every event).',
    examples: [EXAMPLE.licenseId],
    'x-error': 'licenseId must be a license id of at most 100 characters.',
  })),
});

export const WebhookDeliveryQuery = Input({
  ...PageQuery('The last id of the previous page.').properties,
  status: t.Optional(literalUnion(WEBHOOK_DELIVERY_STATUSES, { description: 'Only the deliveries in this state (failed: failed for good).' })),
});

const MS_ERROR = 'from and to must be whole Unix times in milliseconds.';
export const BulkRedeliverBody = Input({
  from: t.Number({ multipleOf: 1, minimum: 0, maximum: 8_640_000_000_000_000, 'x-error': MS_ERROR, description: 'Unix ms: deliveries created at or after it.', examples: [EXAMPLE.time - 86_400_000] }),
  to: t.Number({ multipleOf: 1, minimum: 0, maximum: 8_640_000_000_000_000, 'x-error': MS_ERROR, description: `Unix ms: deliveries created before it; at most ${WEBHOOK_LIMITS.redeliverRangeMs / 86_400_000} days after from.`, examples: [EXAMPLE.time] }),
}, { examples: [{ from: EXAMPLE.time - 86_400_000, to: EXAMPLE.time }] });

export const BulkRedelivery = t.Object({
  redelivered: t.Number({ description: `How many failed deliveries this call made pending again (at most ${WEBHOOK_LIMITS.redeliverPerCall}).` }),
  hasMore: t.Boolean({ description: 'Failed deliveries remain in the range: call again.' }),
}, { examples: [{ redelivered: 12, hasMore: false }] });

export const EndpointParams = Input({ id: Id({ examples: [EXAMPLE.webhookEndpointId] }) });

export const DeliveryParams = Input({ id: Id({ examples: [EXAMPLE.webhookDeliveryId] }) });

export const WebhookReceipt = t.Object({ received: t.Literal(true), duplicate: t.Optional(t.Literal(true)) });
