import { describe, expect, test } from 'bun:test';
import { createHttpApp } from '../../src/adapters/http/server.ts';
import { jsonLogger } from '../../src/adapters/system/logger.ts';
import { sqliteDeps, TEST_ISSUER } from '../support/deps.ts';
import { testApi } from '../support/http.ts';
import { authenticated, developerWorld, expectError, routeTable } from './fixtures.ts';

describe('GET /health', () => {
  test('answers 200 {status: "ok"} while the store answers', async () => {
    const api = testApi();
    const reply = await api.call('GET', '/health');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok' });
  });

  test('answers 503 in the error shape when the store does not answer', async () => {
    const app = createHttpApp(sqliteDeps().deps, { log: jsonLogger('silent'), ping: async () => false, publicBaseUrl: TEST_ISSUER, version: 'test' });
    const response = await app.handle(new Request('http://localhost/v1/health'));
    expectError({ status: response.status, headers: response.headers, body: await response.json() }, 503, 'unavailable');
  });
});

describe('unknown routes', () => {
  test('an unknown path is a JSON 404 not_found', async () => {
    const api = testApi();
    expectError(await api.call('GET', '/no/such/route'), 404, 'not_found');
    expectError(await api.call('DELETE', '/developers/products'), 404, 'not_found');
  });

  test('a path outside /v1 is a JSON 404 too', async () => {
    const api = testApi();
    const response = await api.app.handle(new Request('http://localhost/health'));
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('not_found');
  });
});

describe('GET /openapi.json', () => {
  const openapi = async () => {
    const w = await developerWorld();
    const doc = await w.api.call('GET', '/openapi.json');
    return { w, doc };
  };
  const operation = (doc: any, method: string, path: string) =>
    doc.paths[`/v1${path.replace(/:(\w+)/g, '{$1}')}`]?.[method.toLowerCase()];

  test('is an OpenAPI 3 document', async () => {
    const { doc } = await openapi();
    expect(doc.status).toBe(200);
    expect(doc.headers.get('content-type')).toContain('application/json');
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(doc.body.info.title).toEqual(expect.any(String));
  });

  test('lists every API route', async () => {
    const { w, doc } = await openapi();
    const apiRoutes = routeTable(w).filter((r) => !['GET /openapi.json', 'GET /docs'].includes(r.name));
    for (const route of apiRoutes) {
      const [method, path] = route.name.split(' ') as [string, string];
      expect({ route: route.name, listed: operation(doc.body, method, path) !== undefined }).toEqual({ route: route.name, listed: true });
    }
  });

  test('declares the API-key and bearer security schemes', async () => {
    const { doc } = await openapi();
    const schemes = doc.body.components.securitySchemes;
    expect(schemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(schemes.bearerSecret).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  test('every authenticated route states its security and its 401; secret-only routes also their 403', async () => {
    const { w, doc } = await openapi();
    for (const route of authenticated(routeTable(w))) {
      const [method, path] = route.name.split(' ') as [string, string];
      const op = operation(doc.body, method, path);
      expect({ route: route.name, security: op.security.length > 0 }).toEqual({ route: route.name, security: true });
      expect({ route: route.name, security: op.security }).toEqual({
        route: route.name, security: expect.arrayContaining([route.auth === 'customer' ? { identityToken: [], deviceFingerprint: [] } : { apiKey: [] }]),
      });
      const statuses = Object.keys(op.responses);
      expect({ route: route.name, statuses }).toEqual({ route: route.name, statuses: expect.arrayContaining(route.auth === 'secret' ? ['401', '403'] : ['401']) });
    }
  });

  test('declares the identity-token bearer scheme for customers, with its device header', async () => {
    const { doc } = await openapi();
    expect(doc.body.components.securitySchemes.identityToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    // The token is always sent with its device: one requirement names both.
    expect(doc.body.components.securitySchemes.deviceFingerprint).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Device-Fingerprint' });
  });

  test('GET /licenses/:id documents both the secret key and the customer’s identity token', async () => {
    const { doc } = await openapi();
    expect(operation(doc.body, 'GET', '/licenses/:id').security).toEqual(expect.arrayContaining([{ apiKey: [] }, { identityToken: [], deviceFingerprint: [] }]));
  });

  test('the terminal routes document their OTP, rate-limit, SMS and payment errors', async () => {
    const { doc } = await openapi();
    const expected: [string, string, string[]][] = [
      ['POST', '/auth/login/init', ['200', '400', '429', '502']],
      ['POST', '/auth/login/verify', ['200', '400', '410', '422', '429']],
      ['POST', '/purchase/init', ['200', '401', '404', '409']],
      ['POST', '/purchase/otp', ['200', '401', '404', '409', '429', '502']],
      ['POST', '/purchase/confirm', ['200', '401', '402', '404', '410', '422', '429']],
    ];
    for (const [method, path, statuses] of expected) {
      const documented = Object.keys(operation(doc.body, method, path).responses);
      expect({ path, documented }).toEqual({ path, documented: expect.arrayContaining(statuses) });
    }
  });

  test('unbind documents Authorization: Bearer as an alternative', async () => {
    const { doc } = await openapi();
    expect(operation(doc.body, 'POST', '/licenses/:id/unbind').security).toContainEqual({ bearerSecret: [] });
  });

  test('public routes need no security', async () => {
    const { doc } = await openapi();
    const open = [['POST', '/developers/signup'], ['GET', '/developers/:id/jwks.json'], ['GET', '/health'], ['POST', '/auth/login/init'], ['POST', '/auth/login/verify'], ['GET', '/sandbox/outbox']] as const;
    for (const [method, path] of open) {
      expect(operation(doc.body, method, path).security ?? []).toEqual([]);
    }
  });

  test('error responses are documented with the error shape', async () => {
    const { doc } = await openapi();
    const grant = operation(doc.body, 'POST', '/developers/licenses');
    for (const status of ['400', '401', '403', '404', '413']) {
      const schema = JSON.stringify(grant.responses[status]);
      expect(schema).toContain('error');
      expect(schema).toContain('code');
    }
    expect(Object.keys(operation(doc.body, 'POST', '/developers/signup').responses)).toEqual(expect.arrayContaining(['201', '400', '409', '413']));
  });

  test('each route documents every error status it can produce (400 for bad ids or bodies, 413 for big bodies, 404 for unknown ids)', async () => {
    const { w, doc } = await openapi();
    const missing: string[] = [];
    for (const route of routeTable(w)) {
      if (['GET /openapi.json', 'GET /docs', 'GET /health'].includes(route.name)) continue;
      const [method, path] = route.name.split(' ') as [string, string];
      const documented = Object.keys(operation(doc.body, method, path).responses ?? {});
      const produced = new Set<string>();
      if (route.name === 'GET /connect/callback') produced.add('400'); // no, unknown or used state
      if (route.name.startsWith('GET /sandbox/outbox')) produced.add('400'); // no `to`
      if (route.auth !== 'none') produced.add('401');
      if (route.auth === 'secret') produced.add('403');
      if (route.hasIdParam || route.method !== 'GET') produced.add('400'); // id over 100 chars, malformed JSON
      if (route.hasIdParam) produced.add('404');
      if (route.method !== 'GET') produced.add('413');
      for (const status of produced) if (!documented.includes(status)) missing.push(`${route.name} ${status}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('GET /docs', () => {
  const assetUrls = (html: string, base: string) =>
    [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1]!, base));

  test('is an HTML page that names no other host', async () => {
    const api = testApi();
    const reply = await api.call('GET', '/docs');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/html');
    expect(reply.body).not.toMatch(/https?:\/\//);
    expect(reply.body).not.toMatch(/src="\/\//);
  });

  test('every asset the page loads is served by the service itself', async () => {
    const api = testApi();
    const page = 'http://localhost/v1/docs';
    const html = (await api.call('GET', '/docs')).body as string;
    const urls = assetUrls(html, page);
    expect(urls.length).toBeGreaterThanOrEqual(2);
    for (const url of urls) {
      expect(url.host).toBe('localhost');
      const response = await api.app.handle(new Request(url));
      expect({ url: url.pathname, status: response.status }).toEqual({ url: url.pathname, status: 200 });
      expect((await response.text()).length).toBeGreaterThan(0);
    }
  });

  test('the page points the reference at the service’s own openapi.json', async () => {
    const api = testApi();
    const init = await api.call('GET', '/docs/assets/init.js');
    expect(init.status).toBe(200);
    const specUrl = new URL(/url:\s*'([^']+)'/.exec(init.body)![1]!, 'http://localhost/v1/docs');
    expect(specUrl.pathname).toBe('/v1/openapi.json');
  });

  test('the page also works when opened as /docs/ (its relative assets still resolve)', async () => {
    const api = testApi();
    const page = 'http://localhost/v1/docs/';
    const response = await api.app.handle(new Request(page));
    if (response.status !== 200) return expect([301, 302, 307, 308]).toContain(response.status); // a redirect to /docs is fine too
    for (const url of assetUrls(await response.text(), page)) {
      expect({ url: url.pathname, status: (await api.app.handle(new Request(url))).status }).toEqual({ url: url.pathname, status: 200 });
    }
  });
});
