import { describe, expect, test } from 'bun:test';
import { NOT_JSON_MESSAGE } from '../../src/adapters/http/body.ts';
import { connectedShop } from '../checkout/shop.ts';
import { seller, testApi } from '../support/http.ts';
import { expectError, world } from './fixtures.ts';

/** What a seller meets first (issue 10): one clear message per mistake, in the seller's terms. */

const PRODUCT = { name: 'Pro', price: 1999, currency: 'usd' };

async function aSeller() {
  const api = testApi();
  return { api, s: await seller(api) };
}

describe('a JSON body sent without content-type: application/json', () => {
  test.each([
    ['curl -d (a form type)', 'application/x-www-form-urlencoded'],
    ['fetch with a string body', 'text/plain;charset=UTF-8'],
    ['a multipart form', 'multipart/form-data; boundary=x'],
  ])('%s gets one message saying to send JSON, not an issue per field', async (_, type) => {
    const { api, s } = await aSeller();
    const reply = await api.call('POST', '/developers/products', { key: s.apiKey, rawBody: JSON.stringify(PRODUCT), headers: { 'content-type': type } });
    expectError(reply, 400, 'invalid_request');
    expect(reply.body.error).toEqual({ code: 'invalid_request', message: NOT_JSON_MESSAGE });
    expect(NOT_JSON_MESSAGE).toContain('content-type: application/json');
  });

  test('no content type at all is still read as JSON, and so are charset and +json variants', async () => {
    const { api, s } = await aSeller();
    const types: (string | null)[] = [null, 'application/json; charset=utf-8', 'Application/JSON', 'application/merge-patch+json'];
    for (const type of types) {
      const headers: Record<string, string> = type === null ? {} : { 'content-type': type };
      const request = new Request('http://localhost/v1/developers/products', { method: 'POST', headers: { 'x-api-key': s.apiKey, ...headers }, body: JSON.stringify(PRODUCT) });
      if (type === null) request.headers.delete('content-type');
      expect((await api.app.handle(request)).status).toBe(201);
    }
  });

  test('the sandbox checkout form still posts as a form', async () => {
    const w = await world();
    const form = 'email=a%40example.com&phone=%2B15551234567&cardNumber=4242424242424242';
    const pay = await w.api.call('POST', `/sandbox/checkout/${w.sessionId}/pay`, { rawBody: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(pay.status).toBe(303);
  });
});

describe('schema failures', () => {
  test('each field’s problem appears once: an empty body names each missing field once', async () => {
    const { api, s } = await aSeller();
    const reply = await api.call('POST', '/developers/products', { key: s.apiKey, body: {} });
    expectError(reply, 400, 'invalid_request');
    expect(reply.body.error.details).toEqual({
      in: 'body',
      issues: [
        { field: 'name', problem: "Property 'name' is missing" },
        { field: 'price', problem: "Property 'price' is missing" },
        { field: 'currency', problem: "Property 'currency' is missing" },
      ],
    });
  });

  test.each([['"19.99"', '19.99'], ['19.99', 19.99], ['-1', -1]])('a price of %s says prices are whole numbers in the currency’s minor unit', async (_, price) => {
    const { api, s } = await aSeller();
    const create = await api.call('POST', '/developers/products', { key: s.apiKey, body: { ...PRODUCT, price } });
    const update = await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { price } });
    for (const reply of [create, update]) {
      expectError(reply, 400, 'invalid_request');
      expect(reply.body.error.details.issues).toEqual([{ field: 'price', problem: expect.stringContaining('minor unit') }]);
      expect(reply.body.error.details.issues[0].problem).toContain('1999 is $19.99');
    }
  });
});

describe('currency codes', () => {
  test('upper case is accepted and stored in lower case, on create and on update', async () => {
    const { api, s } = await aSeller();
    const created = await api.call('POST', '/developers/products', { key: s.apiKey, body: { ...PRODUCT, currency: 'EUR' } });
    const updated = await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { currency: 'Gbp' } });
    const listed = await api.call('GET', '/developers/products', { key: s.apiKey });
    expect(created.status).toBe(201);
    expect(created.body.currency).toBe('eur');
    expect(updated.body.currency).toBe('gbp');
    expect(listed.body.data.map((p: { currency: string }) => p.currency).sort()).toEqual(['eur', 'gbp']);
  });

  test.each(['US', 'dollars', 'u$d', ''])('%p is refused with a message naming the ISO 4217 code', async (currency) => {
    const { api, s } = await aSeller();
    const reply = await api.call('POST', '/developers/products', { key: s.apiKey, body: { ...PRODUCT, currency } });
    expectError(reply, 400, 'invalid_request');
    expect(reply.body.error.details.issues).toEqual([{ field: 'currency', problem: expect.stringContaining('three-letter ISO 4217 code') }]);
  });
});

describe('an inactive product', () => {
  test('at checkout init is 404 not_found saying it is not on sale (an unknown id still says no such product)', async () => {
    const shop = await connectedShop();
    await shop.api.call('PATCH', `/developers/products/${shop.dev.product.id}`, { key: shop.dev.apiKey, body: { active: false } });
    const inactive = await shop.init();
    const unknown = await shop.init({ productId: 'prod_doesNotExist' });
    expectError(inactive, 404, 'not_found');
    expect(inactive.body.error.message).toContain('not on sale');
    expect(unknown.body.error.message).toBe('No such product.');
  });

  test('at purchase init is 404 not_found saying it is not on sale', async () => {
    const w = await world();
    await w.api.call('PATCH', `/developers/products/${w.mine.product.id}`, { key: w.mine.apiKey, body: { active: false } });
    const reply = await w.api.call('POST', '/purchase/init', { headers: w.customer.auth, body: { productId: w.mine.product.id } });
    expectError(reply, 404, 'not_found');
    expect(reply.body.error.message).toContain('not on sale');
  });
});

describe('the machine fingerprint at validation', () => {
  test.each([['the README’s placeholder', '3f…'], ['a pasted value with a space', 'ab cd'], ['a tab', 'ab\tcd'], ['an empty one', '']])(
    '%s is refused with 400 and binds nothing',
    async (_, machineFingerprint) => {
      const { api, s } = await aSeller();
      const { license, licenseKey } = await s.grant();
      const reply = await api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint } });
      expectError(reply, 400, 'invalid_request');
      expect(reply.body.error.details.issues).toEqual([{ field: 'machineFingerprint', problem: expect.stringContaining('64 lower-case hex digits') }]);
      expect((await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey })).body.machineFingerprint).toBeNull();
    },
  );

  test('the client library’s 64 hex digits bind, and so does an application’s own visible-ASCII id', async () => {
    const { api, s } = await aSeller();
    for (const machineFingerprint of ['9c56cc51b374c3ba189210d5b6d4bf57790d351c96c47c02190ecf1e430635ab', 'browser-7f3a:device_1']) {
      const { licenseKey } = await s.grant();
      const reply = await api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint } });
      expect(reply.body.valid).toBe(true);
    }
  });
});
