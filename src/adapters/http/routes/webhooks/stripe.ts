import { Elysia } from 'elysia';
import { handlePaymentEvent } from '../../../../app/webhooks/handle-payment-event.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { errorsOf } from '../../schemas.ts';
import { WebhookReceipt } from './schemas.ts';

/** Incoming: the payment processor's signed events (Stripe), each acted on once. */
export function stripeWebhookRoutes(deps: Deps) {
  return new Elysia({ name: 'webhooks' }).post(
    '/webhooks/stripe-events',
    // The signature covers the exact bytes Stripe sent: the body is read as text, never re-serialized.
    // The body parser hands this route the text itself (server.ts RAW_BODY_ROUTES), chunked or not.
    ({ body, request }) => handlePaymentEvent(deps, typeof body === 'string' ? body : '', request.headers.get('stripe-signature')),
    {
      parse: 'text',
      response: { 200: WebhookReceipt, ...errorsOf(400, 404, 413, 502) },
      detail: {
        tags: ['Webhooks'],
        summary: 'Stripe events',
        description:
          'Verified with Stripe-Signature (HMAC-SHA256 over t.rawBody, 300 s tolerance): 400 invalid_signature otherwise; 404 when no webhook secret is configured. Each event id is acted on once: checkout completed/expired (only from the session’s seller’s connected account), invoices and subscriptions (docs/subscriptions.md), refunds (partial ones recorded; a full refund takes back what the payment bought: a purchase’s license revoked, a renewal’s rolled back to the period paid before it) and lost disputes (as a full refund), deauthorized accounts (disconnect).',
        security: [{ stripeSignature: [] }],
        // Read as text (no body schema to generate from): the event's shape is Stripe's.
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['id', 'type', 'data'],
                description: 'A Stripe event, exactly as Stripe sent it (the signature covers these bytes).',
                properties: { id: { type: 'string' }, type: { type: 'string' }, data: { type: 'object', properties: { object: { type: 'object' } } } },
              },
              example: { id: 'evt_1PqR2sT3uV4wX5yZ', type: 'checkout.session.completed', data: { object: { id: 'cs_test_a1B2c3D4' } } },
            },
          },
        },
      },
    },
  );
}
