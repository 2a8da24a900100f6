import { Elysia } from 'elysia';
import swaggerBundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' };
import swaggerCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' };

/**
 * The reference page's headers: scripts and styles only from the service itself (Swagger UI sets
 * inline styles, and draws icons as data: images), calls only to the service (its own origin and
 * PUBLIC_BASE_URL's, where "Try it out" sends requests), never framed, never sniffed, never cached
 * by a shared cache.
 */
export function docsPageHeaders(publicBaseUrl: string): Record<string, string> {
  const api = new URL(publicBaseUrl).origin;
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self' data:",
      `connect-src 'self' ${api}`,
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

/** The interactive reference, its assets served by the service itself: it works with no internet. */
export function docsRoutes(publicBaseUrl: string) {
  // Absolute paths, so /v1/docs/ (trailing slash) loads the same assets as /v1/docs.
  const base = `${new URL(publicBaseUrl).pathname.replace(/\/+$/, '')}/v1`;
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Licensing API reference</title><link rel="stylesheet" href="${base}/docs/assets/swagger-ui.css">
<style>body{margin:0}.topbar{display:none}</style></head>
<body><div id="reference"></div><script src="${base}/docs/assets/swagger-ui-bundle.js"></script>
<script src="${base}/docs/assets/init.js"></script></body></html>`;
  // persistAuthorization off: a pasted sk_ key must not outlive the tab in localStorage.
  const init = `window.ui = SwaggerUIBundle({ url: '${base}/openapi.json', dom_id: '#reference', deepLinking: true, persistAuthorization: false, tryItOutEnabled: true });`;
  const headers = docsPageHeaders(publicBaseUrl);
  const asset = (path: string, type: string) => () =>
    new Response(Bun.file(path), { headers: { 'content-type': type, 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' } });
  const hide = { detail: { hide: true } };
  return new Elysia({ name: 'docs' })
    .get('/docs', () => new Response(page, { headers }), hide)
    .get('/docs/assets/swagger-ui-bundle.js', asset(swaggerBundle, 'text/javascript; charset=utf-8'), hide)
    .get('/docs/assets/swagger-ui.css', asset(swaggerCss, 'text/css; charset=utf-8'), hide)
    .get('/docs/assets/init.js', () => new Response(init, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'x-content-type-options': 'nosniff' } }), hide);
}
