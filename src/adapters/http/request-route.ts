import type { Logger } from '../system/logger.ts';
import { carrySocketAddress } from './client-address.ts';

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

/**
 * The server's fetch: routes on the request line's path whatever the Host header, and logs each
 * request by method, route pattern and status: never its ids, query string, headers or body.
 */
export function serverFetch(fetch: Fetch, log: Logger, logRequests: boolean): (request: Request) => Promise<Response> {
  if (!logRequests) return async (request) => fetch(routable(request));
  return async (request) => {
    const started = performance.now();
    const routed = routable(request);
    const response = await fetch(routed);
    log.info('request', { method: routed.method, path: routeOf(routed), status: response.status, ms: +(performance.now() - started).toFixed(2) });
    return response;
  };
}
