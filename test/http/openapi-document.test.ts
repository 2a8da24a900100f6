import { describe, expect, test } from 'bun:test';
import { getSchemaValidator } from 'elysia';
import { createHttpApp } from '../../src/adapters/http/server.ts';
import { jsonLogger } from '../../src/adapters/system/logger.ts';
import { sqliteDeps, TEST_ISSUER } from '../support/deps.ts';
import { testApi } from '../support/http.ts';

/**
 * The API reference is complete: every operation carries the schemas of what it takes and what it
 * answers, with examples to try, and its server URL joined to its paths gives the real routes.
 */

type Operation = {
  requestBody?: { content: Record<string, { schema?: object; example?: unknown }> };
  parameters?: { name: string; in: string; schema?: object; example?: unknown }[];
  responses: Record<string, { content?: Record<string, { schema?: object }>; headers?: Record<string, unknown> }>;
};

const api = testApi();
const document = (await api.call('GET', '/openapi.json')).body as {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
};
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, path, method, operation })),
);
/** The routes as the server holds them: those that declare a body schema must document it. */
const routesWithBody = api.app.routes.filter((route) => (route.hooks as { body?: unknown }).body !== undefined && route.path.startsWith('/v1/'));
/** The route's own validator says yes: what the server checks requests (and answers) with. */
const accepts = (schema: object, value: unknown) => getSchemaValidator(schema as never)!.Check(value);
const operationOf = (method: string, path: string) => document.paths[path.replace(/:([^/]+)/g, '{$1}')]?.[method.toLowerCase()];

describe('the servers URL', () => {
  test('is PUBLIC_BASE_URL itself: the paths carry /v1, so nothing doubles it', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: TEST_ISSUER })]);
    for (const { path } of operations) expect(path).toMatch(/^\/v1\/(?!v1\/)/);
  });
});

describe('request bodies', () => {
  test('every route with a body schema documents it as JSON, with the same schema', () => {
    expect(routesWithBody.length).toBeGreaterThan(12);
    for (const route of routesWithBody) {
      const content = operationOf(route.method, route.path)?.requestBody?.content ?? {};
      const media = Object.keys(content);
      expect({ route: `${route.method} ${route.path}`, media: media.length > 0 }).toEqual({ route: `${route.method} ${route.path}`, media: true });
      for (const type of media) expect({ route: route.path, type, schema: content[type]!.schema !== undefined }).toEqual({ route: route.path, type, schema: true });
    }
    const signup = operationOf('POST', '/v1/developers/signup')!.requestBody!.content['application/json']!.schema as any;
    expect(signup.required).toEqual(['email', 'name']);
    expect(Object.keys(signup.properties)).toEqual(['email', 'name']);
  });

  // Replaying them on a live server is openapi-examples.test.ts.
  test('every JSON body has an example its route’s validator accepts', () => {
    let checked = 0;
    for (const route of routesWithBody) {
      const media = operationOf(route.method, route.path)?.requestBody?.content['application/json'];
      if (!media) continue;
      const name = `${route.method} ${route.path}`;
      expect({ name, example: media.example !== undefined }).toEqual({ name, example: true });
      expect({ name, accepted: accepts((route.hooks as { body: object }).body, media.example) }).toEqual({ name, accepted: true });
      checked++;
    }
    expect(checked).toBeGreaterThan(12);
  });

  test('the Stripe webhook documents the event it receives', () => {
    const media = operationOf('POST', '/v1/webhooks/stripe-events')!.requestBody!.content['application/json']!;
    expect(media.schema).toMatchObject({ type: 'object', required: ['id', 'type', 'data'] });
    expect(media.example).toMatchObject({ type: 'checkout.session.completed' });
  });
});

describe('parameters', () => {
  test('every path parameter is declared, with its schema and an example', () => {
    for (const { name, path, operation } of operations) {
      for (const [, param] of path.matchAll(/\{([^}]+)\}/g)) {
        const declared = operation.parameters?.find((p) => p.in === 'path' && p.name === param);
        expect({ name, param, schema: declared?.schema !== undefined, example: typeof declared?.example }).toEqual({ name, param, schema: true, example: 'string' });
      }
    }
  });

  test('every query parameter has its schema', () => {
    const query = operations.flatMap(({ name, operation }) => (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => ({ name, p })));
    expect(query.length).toBeGreaterThan(5);
    for (const { name, p } of query) expect({ name, param: p.name, schema: p.schema !== undefined }).toEqual({ name, param: p.name, schema: true });
  });

  test('the product list’s page size has an example; its cursor none (a made-up cursor is refused)', () => {
    const params = operationOf('GET', '/v1/developers/products')!.parameters!;
    expect(params.find((p) => p.name === 'limit')?.example).toBe(20);
    expect(params.find((p) => p.name === 'startingAfter')?.example).toBeUndefined();
  });

  test('no cursor parameter carries an example', () => {
    const cursors = operations.flatMap(({ name, operation }) => (operation.parameters ?? []).filter((p) => p.name === 'startingAfter').map((p) => ({ name, example: p.example })));
    expect(cursors.length).toBeGreaterThan(0);
    for (const cursor of cursors) expect(cursor).toEqual({ name: cursor.name, example: undefined });
  });
});

describe('responses', () => {
  test('the examples of answers have the answer’s own shape', () => {
    let checked = 0;
    for (const route of api.app.routes) {
      const schemas = (route.hooks as { response?: Record<string, object> }).response ?? {};
      for (const [status, response] of Object.entries(operationOf(route.method, route.path)?.responses ?? {})) {
        const example = (response.content?.['application/json'] as { example?: unknown } | undefined)?.example;
        if (example === undefined || !schemas[status]) continue;
        expect({ route: route.path, status, accepted: accepts(schemas[status]!, example) }).toEqual({ route: route.path, status, accepted: true });
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });

  test('the validation verdict is documented without noValidate, which the route still has (no run-time check of the hot path)', () => {
    const documented = operationOf('POST', '/v1/licenses/validate')!.responses['200']!.content!['application/json']!.schema as Record<string, unknown>;
    const route = api.app.routes.find((r) => r.method === 'POST' && r.path === '/v1/licenses/validate')!;
    expect('noValidate' in documented).toBe(false);
    expect(documented.anyOf).toHaveLength(2);
    expect((route.hooks as { response: Record<string, { noValidate?: boolean }> }).response['200']!.noValidate).toBe(true);
  });

  test('a field’s own validation message is the x-error extension, never a bare `error` keyword', () => {
    const text = JSON.stringify(document);
    expect(text).toContain('"x-error":"price must be');
    const bare: string[] = [];
    JSON.parse(text, (key, value) => (key === 'error' && typeof value === 'string' && bare.push(value), value));
    expect(bare).toEqual([]);
  });

  test('every operation documents a 2xx with its schema (204: none), or a redirect with its Location', () => {
    for (const { name, operation } of operations) {
      const success = Object.entries(operation.responses).filter(([status]) => /^2/.test(status));
      if (success.length === 0) {
        expect({ name, redirect: operation.responses['303']?.headers?.Location !== undefined }).toEqual({ name, redirect: true });
        continue;
      }
      for (const [status, response] of success) {
        if (status === '204') continue; // No Content: nothing to describe
        const schemas = Object.values(response.content ?? {}).map((media) => media.schema);
        expect({ name, status, schemas: schemas.length > 0 && schemas.every(Boolean) }).toEqual({ name, status, schemas: true });
      }
    }
  });
});

describe('GET / and GET /v1', () => {
  test.each(['/', '/v1'])('%s sends a browser to the API reference', async (path) => {
    const reply = await api.app.handle(new Request(`http://localhost${path}`, { headers: { accept: 'text/html' } }));

    expect(reply.status).toBe(302);
    expect(reply.headers.get('location')).toBe('/v1/docs');
  });

  test('they are not operations of the API', () => {
    expect(document.paths['/']).toBeUndefined();
    expect(document.paths['/v1']).toBeUndefined();
  });
});

describe('a service published under a path (PUBLIC_BASE_URL with a path)', () => {
  const mounted = createHttpApp(sqliteDeps().deps, { log: jsonLogger('error', () => {}), ping: async () => true, publicBaseUrl: 'https://example.test/licensing', version: 'test' });

  test('the servers URL keeps the path, and / leads to the reference under it', async () => {
    const doc = await (await mounted.handle(new Request('http://localhost/v1/openapi.json'))).json();
    const home = await mounted.handle(new Request('http://localhost/'));

    expect(doc.servers[0].url).toBe('https://example.test/licensing');
    expect(home.status).toBe(302);
    expect(home.headers.get('location')).toBe('/licensing/v1/docs');
  });
});
