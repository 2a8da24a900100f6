import { Elysia } from 'elysia';

/**
 * GET / and GET /v1 have nothing of their own: a browser (or `curl -L`) that opens the service's
 * address is sent to the API reference. 302, not 301: a browser must not cache where / points.
 */
export function homeRoutes(publicBaseUrl: string) {
  const docs = `${new URL(publicBaseUrl).pathname.replace(/\/+$/, '')}/v1/docs`;
  const toDocs = () => new Response(null, { status: 302, headers: { location: docs, 'cache-control': 'no-store' } });
  const hide = { detail: { hide: true } };
  return new Elysia({ name: 'home' }).get('/', toDocs, hide).get('/v1', toDocs, hide);
}
