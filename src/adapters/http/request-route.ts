import type { Logger } from '../system/logger.ts';
import { carrySocketAddress } from './client-address.ts';
import { requestContext, requestIdOf } from '../system/request-context.ts';
import { describeError } from '../system/describe-error.ts';
import { errorResponse } from './errors.ts';

const ROUTE = Symbol('route');
type Routed = Request & { [ROUTE]?: string };

/** Logged for a request no route matched: its path is whatever the caller typed, so it is not kept. */
export const NO_ROUTE = '(no route)';

/** Remembers which route pattern (`/v1/checkout/status/:sessionId`) Elysia matched for this request. */
export function recordRoute(request: Request, route: string | undefined): void {
  if (route) (request as Routed)[ROUTE] = route;
}

export function routeOf(request: Request): string {
  return (request as Routed)[ROUTE] ?? NO_ROUTE;
}

/**
 * Elysia finds the path at `url.indexOf('/', 11)`, which assumes a host of at least 4 characters:
 * with `Host: x` (url `http://x/v1/health`) it would route `/health`, and with no Host at all (url
 * `/v1/health`) whatever follows index 11. Such a request is handed on with a URL whose path starts
 * where Elysia looks; the usual request (any longer host) passes untouched.
 */
export function routable(request: Request): Request {
  const url = request.url;
  const start = url.charCodeAt(0) === 47 /* / */ ? 0 : url.indexOf('/', 8);
  if (start >= 11 || start < 0) return request;
  // The copy counts under the same client address as the request the socket delivered.
  return carrySocketAddress(request, new Request(`http://localhost${url.slice(start)}`, request));
}

type Fetch = (request: Request) => Response | Promise<Response>;

/** What the server's fetch counts each request into (ServiceMetrics). */
export interface RequestMetrics {
  request(method: string, route: string, status: number, seconds: number): void;
}

/**
 * The server's fetch: routes on the request line's path whatever the Host header; gives each request
 * an id (a well-formed X-Request-Id is kept, else one is made), echoed in the response header, in the
 * error body (`error.requestId`) and in every log line written while serving it; logs each request by
 * method, route pattern and status (never its ids, query string, headers or body) and counts it.
 */
export function serverFetch(fetch: Fetch, log: Logger, logRequests: boolean, metrics?: RequestMetrics): (request: Request) => Promise<Response> {
  return (request) => {
    const requestId = requestIdOf(request.headers.get('x-request-id'));
    return requestContext.run(requestId, async () => {
      const started = performance.now();
      const routed = routable(request);
      let answer: Response;
      try {
        answer = await fetch(routed);
      } catch (error) {
        // Whatever escapes the app is still the contract's JSON, with the id, and logged under it.
        log.error('unhandled error', describeError(error));
        answer = errorResponse(500, 'internal_error', 'Something went wrong on our side.');
      }
      const response = await withRequestId(answer, requestId);
      const ms = performance.now() - started;
      const route = routeOf(routed);
      metrics?.request(routed.method, route, response.status, ms / 1000);
      if (logRequests) log.info('request', { method: routed.method, path: route, status: response.status, ms: +ms.toFixed(2) });
      return response;
    });
  };
}

/** Echoes the id in X-Request-Id and, in a JSON error, as `error.requestId`. */
async function withRequestId(response: Response, requestId: string): Promise<Response> {
  if (response.status < 400 || !response.headers.get('content-type')?.startsWith('application/json')) {
    response.headers.set('x-request-id', requestId);
    return response;
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  const error = (body as { error?: unknown } | null)?.error;
  const headers = new Headers(response.headers);
  headers.set('x-request-id', requestId);
  headers.delete('content-length');
  if (error === null || typeof error !== 'object') return new Response(text, { status: response.status, headers });
  (error as Record<string, unknown>).requestId = requestId;
  return new Response(JSON.stringify(body), { status: response.status, headers });
}
