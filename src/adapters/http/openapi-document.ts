import { openapi } from '@elysiajs/openapi';
import { Elysia } from 'elysia';
import { errorsOf } from './schemas.ts';

type Operation = { responses?: Record<string, unknown> };
type Document = { paths?: Record<string, Record<string, Operation>> };

/**
 * Every route refuses a NUL (U+0000) in its path or query string with 400 invalid_request, before
 * any handler: the document says so on each operation that does not already list a 400.
 */
function documentNulRefusal(document: Document): void {
  const [, schema] = Object.entries(errorsOf(400))[0]!;
  const refusal = { description: 'A NUL character (U+0000) in the path, the query string or the body.', content: { 'application/json': { schema } } };
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      if (operation.responses && !operation.responses['400']) operation.responses['400'] = refusal;
    }
  }
}

/** GET /openapi.json: the OpenAPI 3 document, generated from the routes' own schemas. */
export function apiDocument(version: string, publicBaseUrl: string, description: string) {
  return new Elysia({ name: 'openapi-document' })
    .onAfterHandle(({ response }) => {
      // The plugin hands out one cached object: completing it is idempotent.
      if (response && typeof response === 'object' && 'paths' in response) documentNulRefusal(response as Document);
    })
    .use(
      openapi({
        path: '/docs/openapi-ui',
        specPath: '/openapi.json',
        provider: null,
        documentation: {
          info: { title: 'Licensing and Checkout API', version, description },
          servers: [{ url: `${publicBaseUrl}/v1` }],
          components: {
            securitySchemes: {
              apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'sk_… secret key or pk_… publishable key.' },
              bearerSecret: { type: 'http', scheme: 'bearer', description: 'A secret key as a bearer token (unbind only).' },
              identityToken: { type: 'http', scheme: 'bearer', description: 'A customer’s identity token (idt_…) from POST /auth/login/verify.' },
              stripeSignature: { type: 'apiKey', in: 'header', name: 'Stripe-Signature', description: 'Stripe’s webhook signature.' },
            },
          },
        },
        exclude: { staticFile: false, paths: [/^\/v1\/docs/, '/v1/openapi.json'] },
      }),
    );
}
