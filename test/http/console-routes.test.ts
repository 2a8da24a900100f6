import { describe, expect, test } from 'bun:test';
import { CONSOLE_SCRIPT, CONSOLE_STYLE } from '../../src/adapters/http/routes/console-app.ts';
import { createHttpApp } from '../../src/adapters/http/server.ts';
import { jsonLogger } from '../../src/adapters/system/logger.ts';
import { sqliteDeps } from '../support/deps.ts';
import { testApi } from '../support/http.ts';
import { expectError } from './fixtures.ts';

/** How the service serves the seller console (docs/console.md): one shell, two hashed assets. */
const api = testApi();
const get = (path: string) => api.app.handle(new Request(`http://localhost${path}`));

describe('GET /v1/console', () => {
  test.each(['/v1/console', '/v1/console/', '/v1/console/licenses/lic_123', '/v1/console/webhooks'])('%s is the same HTML shell under the strict policy, never cached', async (path) => {
    const reply = await get(path);
    const page = await reply.text();

    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(reply.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page).toContain(`<script type="module" src="/v1/console/assets/${CONSOLE_SCRIPT.name}"></script>`);
    expect(page).toContain(`<link rel="stylesheet" href="/v1/console/assets/${CONSOLE_STYLE.name}">`);
    // No inline script or style: every <script> has a src, and there is no <style> or style="".
    expect(page.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
    expect(page).not.toMatch(/<style|\sstyle=/);
  });

  test('the assets are cached for good, under their content hash', async () => {
    for (const asset of [CONSOLE_SCRIPT, CONSOLE_STYLE]) {
      const reply = await get(`/v1/console/assets/${asset.name}`);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe(asset.type);
      expect(reply.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await reply.text()).toBe(asset.body);
    }
  });

  test('an unknown asset is the JSON 404, not the shell', async () => {
    const reply = await get('/v1/console/assets/console-000000000000.js');
    const body = await reply.json();
    expectError({ status: reply.status, headers: reply.headers, body }, 404, 'not_found');
  });

  test('the console is not an operation of the API document', async () => {
    const document = await (await get('/v1/openapi.json')).json();
    expect(Object.keys(document.paths).filter((path) => path.includes('console/assets') || path === '/v1/console' || path === '/v1/console/*')).toEqual([]);
  });

  test('under a PUBLIC_BASE_URL with a path, the shell loads its assets from under that path', async () => {
    const mounted = createHttpApp(sqliteDeps().deps, { log: jsonLogger('error', () => {}), ping: async () => true, publicBaseUrl: 'https://example.test/licensing', version: 'test' });
    const page = await (await mounted.handle(new Request('http://localhost/v1/console'))).text();
    expect(page).toContain(`src="/licensing/v1/console/assets/${CONSOLE_SCRIPT.name}"`);
    expect(page).toContain('data-api="/licensing/v1"');
  });
});
