import { Elysia } from 'elysia';
import { errorResponse } from '../errors.ts';
import { consoleBundle, type ConsoleAsset } from '../console/bundle.ts' with { type: 'macro' };

/**
 * The seller console's policy: its own bundled script and stylesheet, calls to its own origin only,
 * no inline script or style (the bundle sets styles through the CSSOM, which style-src does not
 * govern), never framed, forms post nowhere else.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const SHELL_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** The console as src/console is now, inlined when Bun transpiles this file (console/bundle.ts). */
export const { script: CONSOLE_SCRIPT, style: CONSOLE_STYLE } = consoleBundle();

const ASSETS = new Map<string, ConsoleAsset>([CONSOLE_SCRIPT, CONSOLE_STYLE].map((asset) => [asset.name, asset]));

/**
 * The seller console (docs/console.md): one HTML shell for /console and every client-side route
 * under it, and its two content-hashed assets, cached for good. Hidden from the API document: the
 * console is a client of the API, not part of it.
 */
export function consoleAppRoutes(publicBaseUrl: string) {
  // Absolute paths, so /v1/console/licenses/lic_… loads the same assets as /v1/console.
  const base = `${new URL(publicBaseUrl).pathname.replace(/\/+$/, '')}/v1`;
  const shell = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Seller console</title>
<link rel="stylesheet" href="${base}/console/assets/${CONSOLE_STYLE.name}">
<script type="module" src="${base}/console/assets/${CONSOLE_SCRIPT.name}"></script></head>
<body><div id="console" data-api="${base}" data-base="${base}/console"><noscript>The seller console needs JavaScript; the API and the CLI do everything it does.</noscript></div></body></html>`;
  const page = () => new Response(shell, { headers: SHELL_HEADERS });
  const hide = { detail: { hide: true } };
  return new Elysia({ name: 'console-app' })
    .get('/console', page, hide)
    .get('/console/*', page, hide)
    .get('/console/assets/:name', ({ params }) => {
      const asset = ASSETS.get(params.name);
      if (!asset) return errorResponse(404, 'not_found', 'No such console asset.');
      return new Response(asset.body, {
        headers: { 'content-type': asset.type, 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff' },
      });
    }, hide);
}
