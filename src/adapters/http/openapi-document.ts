import { openapi } from '@elysiajs/openapi';
import { Elysia } from 'elysia';
import { EXAMPLE } from './examples.ts';
import { errorsOf } from './schemas.ts';
import { documentSignedAnswers } from './signed-answer.ts';
import { IDEMPOTENCY_PARAMETER, takesIdempotencyKey } from './idempotency.ts';

type Schema = { examples?: unknown[]; noValidate?: boolean };
type Media = { schema?: Schema; example?: unknown };
type Parameter = { name?: string; in?: string; schema?: Schema; example?: unknown; $ref?: string };
type Operation = { responses?: Record<string, { content?: Record<string, Media> } | unknown>; requestBody?: { content?: Record<string, Media> }; parameters?: Parameter[] };
type Document = { paths?: Record<string, Record<string, Operation>> };
/** What the document needs of a route: its body schema, when it declares one. */
export type RouteInfo = { method: string; path: string; hooks?: { body?: unknown; beforeHandle?: unknown } };

/**
 * Every route refuses a NUL (U+0000) in its path or query string with 400 invalid_request, before
 * any handler: the document says so on each operation that does not already list a 400.
 */
function documentNulRefusal(document: Document): void {
  const [, schema] = Object.entries(errorsOf(400))[0]!;
  const refusal = { description: 'A NUL character (U+0000) in the path, the query string or the body.', content: { 'application/json': { schema } } };
  for (const operation of operations(document)) {
    if (operation.responses && !operation.responses['400']) operation.responses['400'] = refusal;
  }
}

/**
 * Bodies are read by the server's own parse hook (body.ts: size limit, NUL refusal, JSON), and the
 * generator lists media types only for Elysia's named parsers: it leaves `content` empty for a
 * function. The document states what that hook accepts, JSON, with the route's own schema.
 */
function documentJsonBodies(document: Document, routes: readonly RouteInfo[]): void {
  for (const route of routes) {
    const operation = document.paths?.[openApiPath(route.path)]?.[route.method.toLowerCase()];
    const content = operation?.requestBody?.content;
    if (!content || !route.hooks?.body || Object.keys(content).length > 0) continue;
    content['application/json'] = { schema: route.hooks.body as Schema };
  }
}

/** A path parameter's example follows the resource it names. */
const PATH_EXAMPLES: [RegExp, string][] = [
  [/^\/v1\/developers\/\{id\}\//, EXAMPLE.developerId],
  [/^\/v1\/developers\/products\/\{id\}/, EXAMPLE.productId],
  [/^\/v1\/developers\/api-keys\/\{id\}/, EXAMPLE.apiKeyId],
  [/^\/v1\/licenses\/\{id\}/, EXAMPLE.licenseId],
  [/\{sessionId\}/, EXAMPLE.sessionId],
  [/^\/v1\/developers\/console\/sessions\/\{id\}/, EXAMPLE.consoleSessionId],
  [/^\/v1\/developers\/passkeys\/\{id\}/, EXAMPLE.passkeyId],
];

/**
 * Swagger UI fills "Try it out" from the media type's and the parameter's `example`, and shows a
 * response's: each takes the first of its schema's `examples` (schemas.ts), path parameters one of
 * the resource they name.
 */
function documentExamples(document: Document): void {
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      const responses = Object.values(operation.responses ?? {}) as { content?: Record<string, Media> }[];
      for (const media of [operation.requestBody, ...responses].flatMap((part) => Object.values(part?.content ?? {}))) {
        if (media.example === undefined && media.schema?.examples?.length) media.example = media.schema.examples[0];
      }
      for (const parameter of operation.parameters ?? []) {
        if (parameter.example !== undefined) continue;
        const example = parameter.schema?.examples?.[0] ?? (parameter.in === 'path' ? PATH_EXAMPLES.find(([pattern]) => pattern.test(path))?.[1] : undefined);
        if (example !== undefined) parameter.example = example;
      }
    }
  }
}

/**
 * `noValidate` tells Elysia not to check an answer at run time (the validation verdict's): a server
 * setting, not JSON Schema, which OpenAPI linters refuse. The document shows a copy without it; the
 * route keeps its own schema, and its setting.
 */
function withoutServerKeywords(document: Document): void {
  for (const operation of operations(document)) {
    // A 204 has no body: the plugin writes t.Void's own keywords where the media types belong.
    const empty = operation.responses?.['204'] as { description?: string; content?: unknown } | undefined;
    if (empty) delete empty.content;
    const responses = Object.values(operation.responses ?? {}) as { content?: Record<string, Media> }[];
    for (const media of [operation.requestBody, ...responses].flatMap((part) => Object.values(part?.content ?? {}))) {
      if (!media.schema || !('noValidate' in media.schema)) continue;
      const { noValidate: _, ...schema } = media.schema;
      media.schema = schema;
    }
  }
}

/** The routes that honour Idempotency-Key list it, as the one shared parameter. */
function documentIdempotencyKeys(document: Document, routes: readonly RouteInfo[]): void {
  const ref = { $ref: '#/components/parameters/IdempotencyKey' };
  for (const route of routes) {
    const operation = document.paths?.[openApiPath(route.path)]?.[route.method.toLowerCase()];
    if (!operation || !takesIdempotencyKey(route.hooks)) continue;
    operation.parameters ??= [];
    if (!operation.parameters.some((p) => p.$ref === ref.$ref)) operation.parameters.push(ref);
    // The key's own refusals: reused for another request, or its first request still running.
    operation.responses ??= {};
    for (const [status, schema] of Object.entries(errorsOf(409, 422))) {
      operation.responses[status] ??= { description: schema.description, content: { 'application/json': { schema } } };
    }
  }
}

const operations = (document: Document) => Object.values(document.paths ?? {}).flatMap((methods) => Object.values(methods));
const openApiPath = (path: string) => path.replace(/:([^/]+)/g, '{$1}');

export interface DocumentOptions {
  version: string;
  publicBaseUrl: string;
  description: string;
  /** The service's routes, read when the document is first asked for (all are mounted by then). */
  routes: () => readonly RouteInfo[];
}

/** GET /openapi.json: the OpenAPI 3 document, generated from the routes' own schemas. */
export function apiDocument({ version, publicBaseUrl, description, routes }: DocumentOptions) {
  return new Elysia({ name: 'openapi-document' })
    .onAfterHandle(({ response }) => {
      // The plugin hands out one cached object: completing it is idempotent.
      if (!response || typeof response !== 'object' || !('paths' in response)) return;
      const document = response as Document;
      documentJsonBodies(document, routes());
      documentIdempotencyKeys(document, routes());
      documentExamples(document);
      documentNulRefusal(document);
      documentSignedAnswers(document);
      withoutServerKeywords(document);
    })
    .use(
      openapi({
        path: '/docs/openapi-ui',
        specPath: '/openapi.json',
        provider: null,
        documentation: {
          info: { title: 'Licensing and Checkout API', version, description },
          // Every path already starts with /v1: the server is the service's base URL itself, so
          // "Try it out" calls PUBLIC_BASE_URL/v1/…, never /v1/v1/….
          servers: [{ url: publicBaseUrl, description: 'This service (PUBLIC_BASE_URL).' }],
          components: {
            parameters: { IdempotencyKey: IDEMPOTENCY_PARAMETER },
            securitySchemes: {
              apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'sk_… secret key or pk_… publishable key.' },
              bearerSecret: { type: 'http', scheme: 'bearer', description: 'A secret key as a bearer token (unbind only).' },
              identityToken: { type: 'http', scheme: 'bearer', description: 'A customer’s identity token (idt_…) from POST /auth/login/verify; always sent with X-Device-Fingerprint.' },
              deviceFingerprint: { type: 'apiKey', in: 'header', name: 'X-Device-Fingerprint', description: 'The deviceFingerprint the identity token was issued to at login; a token without it, or with another device’s, is 401.' },
              consoleSession: { type: 'apiKey', in: 'cookie', name: '__Host-licensing_console', description: 'The seller console’s session (docs/console-sign-in.md), set by POST /developers/login/verify or /login/passkey/verify; HttpOnly, so only the browser sends it. Always with X-CSRF-Token.' },
              csrfToken: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token', description: 'The console session’s CSRF token (csrfToken of the sign-in answer or of GET /developers/console/session); without it, or with another, a cookie-authenticated request is 403.' },
              stripeSignature: { type: 'apiKey', in: 'header', name: 'Stripe-Signature', description: 'Stripe’s webhook signature.' },
            },
          },
        },
        exclude: { staticFile: false, paths: [/^\/v1\/docs/, '/v1/openapi.json'] },
      }),
    );
}
