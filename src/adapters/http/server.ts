import { Elysia } from 'elysia';
import type { Deps } from '../../ports/deps.ts';
import type { Logger } from '../system/logger.ts';
import { StoreHealth } from '../system/store-health.ts';
import { describeError, errorResponse, toErrorResponse } from './errors.ts';
import { MAX_BODY_BYTES, NUL_MESSAGE, readBody } from './body.ts';
import { recordRoute } from './request-route.ts';
import { settleFailure } from './idempotency.ts';
import { apiDocument, type RouteInfo } from './openapi-document.ts';
import { benchCeilingRoute } from './routes/bench-ceiling.ts';
import { checkoutPages } from './routes/checkout/pages.ts';
import { checkoutRoutes } from './routes/checkout/sessions.ts';
import { connectRoutes } from './routes/connect.ts';
import { customerAccountRoutes } from './routes/customers/account.ts';
import { customerAuthRoutes } from './routes/customers/auth.ts';
import { customerListRoutes } from './routes/customers/seller.ts';
import { developerRoutes } from './routes/developers.ts';
import { consoleAppRoutes } from './routes/console-app.ts';
import { consoleRoutes } from './routes/console.ts';
import { docsRoutes } from './routes/docs.ts';
import { healthRoutes } from './routes/health.ts';
import { metricsRoutes, type MetricsPage } from './routes/metrics.ts';
import { homeRoutes } from './routes/home.ts';
import { licenseHolderRoutes } from './routes/licenses/holder.ts';
import { licenseSellerRoutes } from './routes/licenses/seller.ts';
import { machineFileRoutes } from './routes/licenses/machine-files.ts';
import { leaseRoutes } from './routes/licenses/leases.ts';
import { orderListRoutes } from './routes/orders.ts';
import { statsRoutes } from './routes/stats.ts';
import { productRoutes } from './routes/products.ts';
import { purchaseRoutes } from './routes/purchase.ts';
import { sandboxMailRoutes } from './routes/sandbox/mail.ts';
import { outboxRoutes } from './routes/sandbox/outbox.ts';
import { SANDBOX_FORM_ROUTES, sandboxRoutes } from './routes/sandbox/processor.ts';
import { ACCOUNT_FORM_ROUTES } from './routes/customers/buyer-pages.ts';
import { subscriptionRoutes } from './routes/subscriptions.ts';
import { trialRoutes } from './routes/trials.ts';
import { webhookDeliveryRoutes } from './routes/webhooks/deliveries.ts';
import { webhookEndpointRoutes } from './routes/webhooks/endpoints.ts';
import { stripeWebhookRoutes } from './routes/webhooks/stripe.ts';
import { browserErrorResponse } from './pages/error-page.ts';

export { MAX_BODY_BYTES } from './body.ts';

/** Routes whose handlers check a signature over the exact body: they get text, never parsed JSON. */
const RAW_BODY_ROUTES = new Set(['/v1/webhooks/stripe-events']);

export interface HttpOptions {
  log: Logger;
  ping: () => Promise<boolean>;
  /** Store failures seen by requests: logged once per episode, and they make /health/ready say no. */
  storeHealth?: StoreHealth;
  /** True once the process is stopping (SIGTERM): /health/ready answers 503 while it drains. */
  draining?: () => boolean;
  /** How long /health/ready waits for the store (default 2 s). */
  readyTimeoutMs?: number;
  publicBaseUrl: string;
  version: string;
  /** The sandbox SMS outbox and mail pages: they exist only while nothing live is configured. */
  sandboxSms?: boolean;
  /** Mounts the benchmark's ceiling route beside the API. */
  benchCeiling?: boolean;
  /** GET /metrics, behind `metrics.token` as a bearer token; absent: no such route (404). */
  metrics?: { page: MetricsPage; token: string };
}

const DESCRIPTION = `Sell software licenses: developer accounts, products, Ed25519-signed license keys, online validation with machine binding.

Errors are JSON: \`{"error": {"code", "message", "details?", "requestId"}}\`. Every answer carries an \`X-Request-Id\` header: the request's own when it is 1–128 characters of \`A-Za-z0-9._:-\`, else one the server made; it is the \`requestId\` of an error and is in the server's log lines for that request. License validation reports an invalid license as a 200 with \`valid: false\` and a \`reason\`. Any route that reads or writes the store may answer \`503 unavailable\` with \`Retry-After\` while the store is unreachable, past its deadlines or full: retry later.

Authentication: \`X-API-Key\` with a secret key (\`sk_…\`, everything) or a publishable key (\`pk_…\`, only validation and checkout).

Operators: \`GET /metrics\` (outside /v1) is the Prometheus text page, for \`Authorization: Bearer <METRICS_TOKEN>\` only (401 otherwise; 404 when the server has no METRICS_TOKEN).`;

export function createHttpApp(deps: Deps, options: HttpOptions) {
  const storeHealth = options.storeHealth ?? new StoreHealth(options.log);
  // normalize off: Elysia would otherwise clone and clean every body and response (a third of the
  // validation hot path); use cases read only the fields they know, so unknown ones are inert.
  const api = new Elysia({ prefix: '/v1', normalize: false })
    .use(apiDocument({ version: options.version, publicBaseUrl: options.publicBaseUrl, description: DESCRIPTION, routes: (): readonly RouteInfo[] => api.routes }))
    .use(docsRoutes(options.publicBaseUrl))
    .use(consoleAppRoutes(options.publicBaseUrl))
    .use(healthRoutes({ ping: options.ping, storeHealth, draining: options.draining, readyTimeoutMs: options.readyTimeoutMs }))
    .use(developerRoutes(deps))
    .use(consoleRoutes(deps))
    .use(productRoutes(deps))
    .use(licenseSellerRoutes(deps))
    .use(licenseHolderRoutes(deps))
    .use(machineFileRoutes(deps))
    .use(leaseRoutes(deps))
    .use(trialRoutes(deps))
    .use(customerListRoutes(deps))
    .use(orderListRoutes(deps))
    .use(statsRoutes(deps))
    .use(subscriptionRoutes(deps))
    .use(connectRoutes(deps))
    .use(checkoutRoutes(deps))
    .use(checkoutPages(deps))
    .use(stripeWebhookRoutes(deps))
    .use(webhookEndpointRoutes(deps))
    .use(webhookDeliveryRoutes(deps))
    .use(customerAuthRoutes(deps))
    .use(customerAccountRoutes(deps))
    .use(purchaseRoutes(deps))
    // Nothing under /v1/sandbox exists once a live processor is configured.
    .use(deps.processor.kind === 'sandbox' ? sandboxRoutes(deps) : new Elysia({ name: 'no-sandbox' }))
    .use(options.sandboxSms ? outboxRoutes(deps) : new Elysia({ name: 'no-outbox' }))
    .use(options.sandboxSms ? sandboxMailRoutes(deps) : new Elysia({ name: 'no-sandbox-mail' }));

  return new Elysia({ normalize: false })
    .onRequest(({ request }) => {
      // PostgreSQL text cannot hold U+0000: refused in the path and query here, in bodies by readBody.
      if (request.url.includes('%00')) return errorResponse(400, 'invalid_request', NUL_MESSAGE);
      // Refused before a byte of the body is read; methods without a body are not concerned.
      if (request.method === 'GET' || request.method === 'HEAD') return;
      const length = Number(request.headers.get('content-length') ?? 0);
      if (length > MAX_BODY_BYTES) return errorResponse(413, 'payload_too_large', 'The body is larger than 64 KiB.');
    })
    .onParse(({ request, route }) => readBody(request, RAW_BODY_ROUTES.has(route) ? 'raw' : SANDBOX_FORM_ROUTES.has(route) || ACCOUNT_FORM_ROUTES.has(route) ? 'form' : 'json'))
    // The request log names the route pattern, never the ids in the path (a checkout id bears a license key).
    .onTransform(({ request, route }) => recordRoute(request, route))
    .onError(async ({ code, error, request, route }) => {
      recordRoute(request, route);
      const answer = browserErrorResponse(route, code, error, request) ?? toErrorResponse(code, error, options.log, storeHealth);
      // A store that cannot settle the key leaves it to expire; the answer is the request's own.
      await settleFailure(deps, request, answer).catch((failure) => options.log.warn('idempotency key not settled', describeError(failure)));
      return answer;
    })
    .use(homeRoutes(options.publicBaseUrl))
    .use(options.metrics ? metricsRoutes(options.metrics.page, options.metrics.token) : new Elysia({ name: 'no-metrics' }))
    .use(options.benchCeiling ? api.use(benchCeilingRoute()) : api);
}

export type HttpApp = ReturnType<typeof createHttpApp>;
