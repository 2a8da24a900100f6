import { expect, test } from 'bun:test';
import { openapi } from '@elysiajs/openapi';
import { Elysia } from 'elysia';
import { outboxRoutes } from '../../src/adapters/http/routes/sandbox/outbox.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';

test('both outbox routes are documented under Sandbox, with the required to, JSON and HTML answers, and 400', async () => {
  const app = new Elysia({ prefix: '/v1' })
    .use(openapi({ path: '/docs/openapi-ui', specPath: '/openapi.json', provider: null }))
    .use(outboxRoutes({ smsOutbox: openSqliteStore(':memory:').smsOutbox }));

  const doc = await (await app.handle(new Request('http://127.0.0.1/v1/openapi.json'))).json();

  const list = doc.paths['/v1/sandbox/outbox'].get;
  const view = doc.paths['/v1/sandbox/outbox/view'].get;
  for (const operation of [list, view]) {
    expect(operation.tags).toEqual(['Sandbox']);
    expect(operation.parameters).toContainEqual(expect.objectContaining({ name: 'to', in: 'query', required: true }));
    expect(operation.responses['400']).toBeDefined();
  }
  expect(list.responses['200'].content['application/json'].schema.properties.data.type).toBe('array');
  expect(view.responses['200'].content['text/html']).toBeDefined();
});
