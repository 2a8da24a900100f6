import { Elysia, t } from 'elysia';
import { getCheckoutStatus } from '../../../../app/checkout/checkout-status.ts';
import { startCheckout } from '../../../../app/checkout/start-checkout.ts';
import { countFromAddress } from '../../../../app/limits/address-limits.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { SECURITY, withAnyApiKey } from '../../auth.ts';
import { clientAddress } from '../../client-address.ts';
import { EMAIL_MAX_LENGTH } from '../../../../domain/developer.ts';
import { EXAMPLE } from '../../examples.ts';
import { errorsOf, Id, Input, licenseFields, MillisOrNull } from '../../schemas.ts';
import { idempotent, underKey } from '../../idempotency.ts';

const CheckoutInitBody = Input({
  productId: Id(),
  email: t.Optional(t.String({ maxLength: EMAIL_MAX_LENGTH, description: 'Pre-fills the payment page.' })),
  successUrl: t.Optional(t.String({ maxLength: 2048, description: 'Absolute http(s) URL; default: GET /v1/checkout/success.' })),
  cancelUrl: t.Optional(t.String({ maxLength: 2048, description: 'Absolute http(s) URL; default: GET /v1/checkout/cancel.' })),
}, { examples: [{ productId: EXAMPLE.productId, email: EXAMPLE.buyerEmail, successUrl: 'https://app.example.com/thanks', cancelUrl: 'https://app.example.com/cart' }] });

const CheckoutInitResponse = t.Object({
  sessionId: t.String(),
  checkoutUrl: t.String({ description: 'The hosted payment page (Stripe, or /v1/sandbox/checkout/:id in sandbox mode).' }),
});

const CheckoutStatusResponse = t.Union([
  t.Object({ status: t.Literal('pending') }),
  t.Object({ status: t.Literal('expired') }),
  t.Object({
    status: t.Literal('complete'),
    licenseKey: t.String(),
    license: t.Object({
      ...licenseFields('id', 'productId'),
      productName: t.String({ description: 'The product’s name now.' }),
      ...licenseFields('status', 'features', 'issuedAt'),
      expiresAt: MillisOrNull(),
      trial: t.Boolean({ description: 'true: a subscription bought with a free trial. Nothing was charged yet; the license ends with the trial (expiresAt) unless the first charge, at that time, converts it in place.' }),
    }),
  }),
]);

const SessionParams = Input({ sessionId: Id() });

const tags = ['Checkout'];

export function checkoutRoutes(deps: Deps) {
  return new Elysia({ name: 'checkout' })
    .get('/checkout/status/:sessionId', ({ params }) => getCheckoutStatus(deps, params.sessionId), {
      params: SessionParams,
      response: { 200: CheckoutStatusResponse, ...errorsOf(400, 404) },
      detail: {
        tags,
        summary: 'Poll a checkout session',
        description:
          'pending, complete (with licenseKey and license) or expired (30 minutes after init, unless paid). Clients poll every 2 s for at most 10 minutes. No authentication: the session id is the secret. 24 hours after payment the session answers 404 not_found: the buyer gets their keys by signing in.',
        security: SECURITY.none,
      },
    })
    .use(
      withAnyApiKey(deps).post(
        '/checkout/init',
        async ({ caller, body, set, request }) => {
          // A secret key is the seller's own server, which may start checkouts for all its buyers from one address.
          if (caller.scope === 'publishable') await countFromAddress(deps, 'checkout', clientAddress(request, deps.settings.trustedProxyHeader));
          set.status = 201;
          return underKey(request, () => startCheckout(deps, caller.developerId, body));
        },
        {
          body: CheckoutInitBody,
          ...idempotent(deps, {
            kind: 'checkout',
            status: 201,
            answer: async (id) => {
              const session = await deps.checkouts.findById(id);
              return session?.checkoutUrl ? { sessionId: session.id, checkoutUrl: session.checkoutUrl } : null;
            },
          }),
          response: { 201: CheckoutInitResponse, ...errorsOf(400, 401, 404, 409, 413, 429, 502) },
          detail: {
            tags,
            summary: 'Start a hosted checkout',
            description:
              'Secret or publishable key. 409 not_connected before the seller connects a payment account; 404 for a product that is not yours or is inactive; 400 for redirect URLs that are not absolute http(s). With a publishable key, at most 60 checkouts per client address per minute by default (CHECKOUT_RATE_LIMIT_PER_MINUTE); past it, 429 rate_limited with Retry-After.',
            security: SECURITY.any,
          },
        },
      ),
    );
}
