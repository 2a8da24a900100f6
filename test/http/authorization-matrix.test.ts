import { describe, expect, test } from 'bun:test';
import { testApi } from '../support/http.ts';
import { aCustomer, authenticated, developerWorld, expectError, ownerHeaders, routeTable, world, worldFor, type Route, type World } from './fixtures.ts';

// Built once for the table's names, then shared by the tests whose every call must be refused with
// 401: a refused call changes nothing, so one world serves them all (a call wrongly let through
// fails its own test first). A test that expects a 2xx, or logs out, makes its own world.
const refusals = await world(testApi());
const names = authenticated(routeTable(refusals));

const send = (w: World, route: Route, headers: Record<string, string>, id?: string) =>
  w.api.call(route.method, route.path(id), { headers, ...(route.body && { body: route.body() }) });

const byName = (w: World, name: string) => routeTable(w).find((r) => r.name === name)!;

describe.each(names.map((r) => [r.name]))('%s', (name) => {
  test('without a key: 401 unauthorized', async () => {
    const w = refusals;
    expectError(await send(w, byName(w, name), {}), 401, 'unauthorized');
  });

  test('with an unknown key (sk_ + junk, pk_ + junk, no prefix): 401 unauthorized', async () => {
    const w = refusals;
    for (const key of ['sk_' + 'x'.repeat(43), 'pk_junk', 'not-a-key', 'sk_' + 'é'.repeat(10), 'sk_' + 'a'.repeat(5000)]) {
      expectError(await send(w, byName(w, name), { 'x-api-key': key }), 401, 'unauthorized');
    }
  });

  test('with an empty X-API-Key header: 401 unauthorized', async () => {
    const w = refusals;
    expectError(await send(w, byName(w, name), { 'x-api-key': '' }), 401, 'unauthorized');
  });

  test('with a publishable key: 403 forbidden where a secret key is needed, 401 where an identity token is, else allowed', async () => {
    const w = await worldFor(name);
    const route = byName(w, name);
    const reply = await send(w, route, { 'x-api-key': w.mine.publishableKey });
    if (route.auth === 'secret') expectError(reply, 403, 'forbidden');
    else if (route.auth === 'customer') expectError(reply, 401, 'unauthorized');
    else expect([200, 201, 202]).toContain(reply.status);
  });

  test('with the owner’s credential (secret key, or the customer’s identity token): 2xx', async () => {
    const w = await worldFor(name);
    const route = byName(w, name);
    const reply = await send(w, route, ownerHeaders(w, route));
    expect(reply.status).toBeGreaterThanOrEqual(200);
    expect(reply.status).toBeLessThan(300);
  });
});

describe.each(names.filter((r) => r.auth === 'customer').map((r) => [r.name]))('%s (identity token)', (name) => {
  test('a junk, truncated or malformed bearer token: 401 unauthorized', async () => {
    const w = refusals;
    const { token } = w.customer;
    const junk = [`idt_${'x'.repeat(43)}`, 'idt_', token.slice(0, -1), `${token}x`, `idt_${'é'.repeat(10)}`, `idt_${'a'.repeat(5000)}`, 'not-a-token'];
    for (const value of junk) expectError(await send(w, byName(w, name), { authorization: `Bearer ${value}` }), 401, 'unauthorized');
    expectError(await send(w, byName(w, name), { authorization: token }), 401, 'unauthorized');
    expectError(await send(w, byName(w, name), { authorization: `Basic ${btoa(`u:${token}`)}` }), 401, 'unauthorized');
  });

  test('a secret or publishable key as the bearer: 401 unauthorized', async () => {
    const w = refusals;
    for (const key of [w.mine.apiKey, w.mine.publishableKey, w.other.apiKey]) {
      expectError(await send(w, byName(w, name), { authorization: `Bearer ${key}` }), 401, 'unauthorized');
    }
  });

  test('the token without X-Device-Fingerprint, or on another device: 401; on its own device: 2xx', async () => {
    const w = await world();
    const route = byName(w, name);
    const { 'x-device-fingerprint': _device, ...tokenAlone } = ownerHeaders(w, route);
    expectError(await send(w, route, tokenAlone), 401, 'unauthorized');
    expectError(await send(w, route, { ...tokenAlone, 'x-device-fingerprint': '' }), 401, 'unauthorized');
    expectError(await send(w, route, { ...ownerHeaders(w, route), 'x-device-fingerprint': 'another-device' }), 401, 'unauthorized');
    const reply = await send(w, route, { ...ownerHeaders(w, route), 'x-device-fingerprint': w.customer.device });
    expect(reply.status).toBeLessThan(300);
  });

  test('the token after logout: 401 unauthorized', async () => {
    const w = await world();
    await w.api.call('POST', '/auth/logout', { headers: ownerHeaders(w, byName(w, name)) });
    expectError(await send(w, byName(w, name), ownerHeaders(w, byName(w, name))), 401, 'unauthorized');
  });
});

describe('another customer’s identity token on this customer’s purchase', () => {
  test.each([['POST /purchase/otp'], ['POST /purchase/confirm']])('%s: 404 not_found, and the purchase stays unpaid', async (name) => {
    const w = await world();
    const stranger = await aCustomer(w.api, w.mine.apiKey, w.mine.product.id, { email: 'stranger@example.com', phone: '+15559876543', device: 'fp-stranger' });
    const route = byName(w, name);
    const body = { ...route.body!(), cardId: stranger.purchase.cardId };
    const reply = await w.api.call(route.method, route.path(), { headers: stranger.auth, body });
    expectError(reply, 404, 'not_found');
    expect((await w.api.deps.purchases.findById(w.customer.purchase.purchaseId))?.status).toBe('pending');
  });
});

describe('another developer’s secret key on this developer’s resources', () => {
  // A customer's routes do not take API keys at all (401); another customer's token is tested in customer-licenses.test.ts.
  const pathRoutes = names.filter((r) => r.hasIdParam && r.auth !== 'customer').map((r) => [r.name]);

  test.each(pathRoutes)('%s: 404 not_found', async (name) => {
    const w = await developerWorld();
    expectError(await send(w, byName(w, name), { 'x-api-key': w.other.apiKey }), 404, 'not_found');
  });

  test('POST /developers/licenses for my product: 404 not_found', async () => {
    const w = await developerWorld();
    expectError(await send(w, byName(w, 'POST /developers/licenses'), { 'x-api-key': w.other.apiKey }), 404, 'not_found');
  });

  test('POST /checkout/init for my product: 404 not_found, with sk or pk', async () => {
    const w = await developerWorld();
    for (const key of [w.other.apiKey, w.other.publishableKey]) {
      expectError(await send(w, byName(w, 'POST /checkout/init'), { 'x-api-key': key }), 404, 'not_found');
    }
  });

  test('GET /connect/status answers for the caller only: mine is connected, the other’s is not', async () => {
    const w = await developerWorld();
    expect((await send(w, byName(w, 'GET /connect/status'), { 'x-api-key': w.mine.apiKey })).body.connected).toBe(true);
    expect((await send(w, byName(w, 'GET /connect/status'), { 'x-api-key': w.other.apiKey })).body).toEqual({ connected: false });
  });

  test('POST /licenses/validate of my license: 200 {valid: false, reason: not_found}, with sk or pk', async () => {
    const w = await developerWorld();
    for (const key of [w.other.apiKey, w.other.publishableKey]) {
      const reply = await send(w, byName(w, 'POST /licenses/validate'), { 'x-api-key': key });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ valid: false, reason: 'not_found' });
    }
  });

  test('GET /developers/products: only their own products, never mine', async () => {
    const w = await developerWorld();
    const reply = await send(w, byName(w, 'GET /developers/products'), { 'x-api-key': w.other.apiKey });
    expect(reply.status).toBe(200);
    expect(reply.body.data.map((p: { id: string }) => p.id)).toEqual([w.other.product.id]);
  });

  test('the other developer’s attempts change nothing of mine', async () => {
    const w = await developerWorld();
    for (const name of ['PATCH /developers/products/:id', 'POST /licenses/:id/revoke']) {
      await send(w, byName(w, name), { 'x-api-key': w.other.apiKey });
    }
    const license = await w.api.call('GET', `/licenses/${w.license.id}`, { key: w.mine.apiKey });
    expect(license.body.status).toBe('active');
    const products = await w.api.call('GET', '/developers/products', { key: w.mine.apiKey });
    // By id: the world also sells a monthly product, created in the same fixed-clock millisecond.
    expect(products.body.data.find((p: { id: string }) => p.id === w.mine.product.id).name).toBe(w.mine.product.name);
  });
});

describe('Authorization: Bearer', () => {
  test('is accepted only on unbind: elsewhere a bearer sk_ is no API key (401)', async () => {
    const w = await world();
    for (const route of authenticated(routeTable(w)).filter((r) => r.name !== 'POST /licenses/:id/unbind')) {
      // Customer routes read the bearer as an identity token: an sk_ there is no token either (401).
      expectError(await send(w, route, { authorization: `Bearer ${w.mine.apiKey}` }), 401, 'unauthorized');
    }
  });

  test('on unbind, another developer’s bearer sk_ is 404 and the owner’s is 200', async () => {
    const w = await developerWorld();
    const unbind = byName(w, 'POST /licenses/:id/unbind');
    expectError(await send(w, unbind, { authorization: `Bearer ${w.other.apiKey}` }), 404, 'not_found');
    expect((await send(w, unbind, { authorization: `Bearer ${w.mine.apiKey}` })).status).toBe(200);
  });
});
