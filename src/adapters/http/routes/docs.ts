import { Elysia } from 'elysia';
import swaggerBundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' };
import swaggerCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' };

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
  const init = `window.ui = SwaggerUIBundle({ url: '${base}/openapi.json', dom_id: '#reference', deepLinking: true, persistAuthorization: true, tryItOutEnabled: true });`;
  const asset = (path: string, type: string) => () =>
    new Response(Bun.file(path), { headers: { 'content-type': type, 'cache-control': 'public, max-age=86400' } });
  const hide = { detail: { hide: true } };
  return new Elysia({ name: 'docs' })
    .get('/docs', () => new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } }), hide)
    .get('/docs/assets/swagger-ui-bundle.js', asset(swaggerBundle, 'text/javascript; charset=utf-8'), hide)
    .get('/docs/assets/swagger-ui.css', asset(swaggerCss, 'text/css; charset=utf-8'), hide)
    .get('/docs/assets/init.js', () => new Response(init, { headers: { 'content-type': 'text/javascript; charset=utf-8' } }), hide);
}
