import { describe, expect, test } from 'bun:test';
import { testApi } from '../support/http.ts';
import { authenticated, expectError, routeTable, world, type Route, type World } from './fixtures.ts';

// Built once for the table's names; each test below makes its own world.
const names = authenticated(routeTable(await world(testApi())));

const send = (w: World, route: Route, headers: Record<string, string>, id?: string) =>
  w.api.call(route.method, route.path(id), { headers, ...(route.body && { body: route.body() }) });

const byName = (w: World, name: string) => routeTable(w).find((r) => r.name === name)!;

describe.each(names.map((r) => [r.name]))('%s', (name) => {
  test('without a key: 401 unauthorized', async () => {
    const w = await world();
    expectError(await send(w, byName(w, name), {}), 401, 'unauthorized');
  });

  test('with an unknown key (sk_ + junk, pk_ + junk, no prefix): 401 unauthorized', async () => {
    const w = await world();
    for (const key of ['sk_' + 'x'.repeat(43), 'pk_junk', 'not-a-key', 'sk_' + 'é'.repeat(10), 'sk_' + 'a'.repeat(5000)]) {
      expectError(await send(w, byName(w, name), { 'x-api-key': key }), 401, 'unauthorized');
    }
  });

  test('with an empty X-API-Key header: 401 unauthorized', async () => {
    const w = await world();
    expectError(await send(w, byName(w, name), { 'x-api-key': '' }), 401, 'unauthorized');
  });

  test('with a publishable key: 403 forbidden where a secret key is needed, else allowed', async () => {
    const w = await world();
    const route = byName(w, name);
    const reply = await send(w, route, { 'x-api-key': w.mine.publishableKey });
    if (route.auth === 'secret') expectError(reply, 403, 'forbidden');
    else expect([200, 201]).toContain(reply.status);
  });

  test('with the owner’s secret key: 2xx', async () => {
    const w = await world();
    const reply = await send(w, byName(w, name), { 'x-api-key': w.mine.apiKey });
    expect(reply.status).toBeGreaterThanOrEqual(200);
    expect(reply.status).toBeLessThan(300);
  });
});

describe('another developer’s secret key on this developer’s resources', () => {
  const pathRoutes = names.filter((r) => r.hasIdParam).map((r) => [r.name]);

  test.each(pathRoutes)('%s: 404 not_found', async (name) => {
    const w = await world();
    expectError(await send(w, byName(w, name), { 'x-api-key': w.other.apiKey }), 404, 'not_found');
  });

  test('POST /developers/licenses for my product: 404 not_found', async () => {
    const w = await world();
    expectError(await send(w, byName(w, 'POST /developers/licenses'), { 'x-api-key': w.other.apiKey }), 404, 'not_found');
  });

  test('POST /checkout/init for my product: 404 not_found, with sk or pk', async () => {
    const w = await world();
    for (const key of [w.other.apiKey, w.other.publishableKey]) {
      expectError(await send(w, byName(w, 'POST /checkout/init'), { 'x-api-key': key }), 404, 'not_found');
    }
  });

  test('GET /connect/status answers for the caller only: mine is connected, the other’s is not', async () => {
    const w = await world();
    expect((await send(w, byName(w, 'GET /connect/status'), { 'x-api-key': w.mine.apiKey })).body.connected).toBe(true);
    expect((await send(w, byName(w, 'GET /connect/status'), { 'x-api-key': w.other.apiKey })).body).toEqual({ connected: false });
  });

  test('POST /licenses/validate of my license: 200 {valid: false, reason: not_found}, with sk or pk', async () => {
    const w = await world();
    for (const key of [w.other.apiKey, w.other.publishableKey]) {
      const reply = await send(w, byName(w, 'POST /licenses/validate'), { 'x-api-key': key });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ valid: false, reason: 'not_found' });
    }
  });

  test('GET /developers/products: only their own products, never mine', async () => {
    const w = await world();
    const reply = await send(w, byName(w, 'GET /developers/products'), { 'x-api-key': w.other.apiKey });
    expect(reply.status).toBe(200);
    expect(reply.body.data.map((p: { id: string }) => p.id)).toEqual([w.other.product.id]);
  });

  test('the other developer’s attempts change nothing of mine', async () => {
    const w = await world();
    for (const name of ['PATCH /developers/products/:id', 'POST /licenses/:id/revoke']) {
      await send(w, byName(w, name), { 'x-api-key': w.other.apiKey });
    }
    const license = await w.api.call('GET', `/licenses/${w.license.id}`, { key: w.mine.apiKey });
    expect(license.body.status).toBe('active');
    const products = await w.api.call('GET', '/developers/products', { key: w.mine.apiKey });
    expect(products.body.data[0].name).toBe(w.mine.product.name);
  });
});

describe('Authorization: Bearer', () => {
  test('is accepted only on unbind: elsewhere a bearer sk_ is no API key (401)', async () => {
    const w = await world();
    for (const route of authenticated(routeTable(w)).filter((r) => r.name !== 'POST /licenses/:id/unbind')) {
      expectError(await send(w, route, { authorization: `Bearer ${w.mine.apiKey}` }), 401, 'unauthorized');
    }
  });

  test('on unbind, another developer’s bearer sk_ is 404 and the owner’s is 200', async () => {
    const w = await world();
    const unbind = byName(w, 'POST /licenses/:id/unbind');
    expectError(await send(w, unbind, { authorization: `Bearer ${w.other.apiKey}` }), 404, 'not_found');
    expect((await send(w, unbind, { authorization: `Bearer ${w.mine.apiKey}` })).status).toBe(200);
  });
});
