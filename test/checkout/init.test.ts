import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { TEST_ISSUER } from '../support/deps.ts';
import { CONNECTED_ACCOUNT, startFakeStripe, type FakeStripe } from '../support/fake-stripe.ts';
import { seller } from '../support/http.ts';
import { expectError } from '../http/fixtures.ts';
import { connectedShop, openShop } from './shop.ts';

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(() => fake.stop());

describe('POST /checkout/init', () => {
  test('before the seller connects a payment account: 409 not_connected', async () => {
    const shop = await openShop();
    expectError(await shop.init(), 409, 'not_connected');
  });

  test('answers 201 {sessionId, checkoutUrl}; the sandbox page is PUBLIC_BASE_URL/v1/sandbox/checkout/:id', async () => {
    const shop = await connectedShop();
    const reply = await shop.init();
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({ sessionId: expect.stringMatching(/^cs_/), checkoutUrl: expect.any(String) });
    expect(reply.body.checkoutUrl).toBe(`${TEST_ISSUER}/v1/sandbox/checkout/${reply.body.sessionId}`);
  });

  test('the secret key and the publishable key may both start a checkout', async () => {
    const shop = await connectedShop();
    expect((await shop.init({}, shop.dev.apiKey)).status).toBe(201);
    expect((await shop.init({}, shop.dev.publishableKey)).status).toBe(201);
  });

  test('without a key: 401 unauthorized', async () => {
    const shop = await connectedShop();
    expectError(await shop.init({}, null), 401, 'unauthorized');
  });

  test('another developer’s product is 404 not_found, even when the caller is connected', async () => {
    const shop = await connectedShop();
    const other = await seller(shop.api);
    expectError(await shop.init({ productId: other.product.id }), 404, 'not_found');
    expectError(await shop.init({ productId: 'prod_doesNotExist' }), 404, 'not_found');
  });

  test('an inactive product is 404 not_found', async () => {
    const shop = await connectedShop();
    await shop.api.call('PATCH', `/developers/products/${shop.dev.product.id}`, { key: shop.dev.apiKey, body: { active: false } });
    expectError(await shop.init(), 404, 'not_found');
  });

  test.each([['javascript:alert(1)'], ['ftp://x'], ['/relative'], ['data:text/html,hi'], ['http://'], ['']])(
    'a successUrl or cancelUrl of %p is 400 invalid_request naming the field',
    async (url) => {
      const shop = await connectedShop();
      for (const field of ['successUrl', 'cancelUrl']) {
        const reply = await shop.init({ [field]: url });
        expectError(reply, 400, 'invalid_request');
        expect(JSON.stringify(reply.body.error)).toContain(field);
      }
    },
  );

  test('absolute http and https redirect URLs are accepted', async () => {
    const shop = await connectedShop();
    const reply = await shop.init({ successUrl: 'https://app.example.com/thanks?x=1', cancelUrl: 'http://localhost:8080/cart' });
    expect(reply.status).toBe(201);
  });

  test.each([['not-an-email'], ['a@'], ['@example.com'], ['a b@example.com']])('an email of %p is 400 invalid_request', async (email) => {
    const shop = await connectedShop();
    const reply = await shop.init({ email });
    expectError(reply, 400, 'invalid_request');
    expect(JSON.stringify(reply.body.error)).toContain('email');
  });

  test('a refused init leaves no session behind', async () => {
    const shop = await connectedShop();
    await shop.init({ successUrl: 'javascript:alert(1)' });
    const count = shop.store.sqlite.query('SELECT count(*) AS n FROM checkout_sessions').get() as { n: number };
    expect(count.n).toBe(0);
  });
});

describe('POST /checkout/init with Stripe', () => {
  test('creates the Stripe session on the connected account, priced from the product, and answers Stripe’s URL', async () => {
    const shop = await connectedShop({ fake });
    const before = fake.requests.length;
    const reply = await shop.init({ email: 'ada@example.com' });
    expect(reply.status).toBe(201);
    const creations = fake.requests.slice(before).filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    expect(creations).toHaveLength(1);
    const { headers, body } = creations[0]!;
    expect(headers['stripe-account']).toBe(CONNECTED_ACCOUNT);
    expect(body).toMatchObject({
      mode: 'payment',
      line_items: [{ price_data: { currency: 'usd', unit_amount: '1999', product_data: { name: 'Pro' } }, quantity: '1' }],
      customer_email: 'ada@example.com',
      client_reference_id: reply.body.sessionId,
    });
    expect(reply.body.checkoutUrl).toBe(`https://checkout.stripe.test/c/pay/${await shop.stripeId(reply.body.sessionId)}`);
  });

  test('without redirect URLs, Stripe sends the buyer to our default success and cancel pages', async () => {
    const shop = await connectedShop({ fake });
    const before = fake.requests.length;
    const { sessionId } = (await shop.init()).body;
    const created = fake.requests.slice(before).find((r) => r.path === '/v1/checkout/sessions')!;
    expect(created.body).toMatchObject({ success_url: `${TEST_ISSUER}/v1/checkout/success?session_id=${sessionId}`, cancel_url: `${TEST_ISSUER}/v1/checkout/cancel?session_id=${sessionId}` });
  });

  test('a price change after init does not change what the open session charges', async () => {
    const shop = await connectedShop({ fake });
    const { sessionId } = await shop.checkout();
    await shop.api.call('PATCH', `/developers/products/${shop.dev.product.id}`, { key: shop.dev.apiKey, body: { price: 5 } });
    expect((await shop.api.deps.checkouts.findById(sessionId))?.amount).toBe(1999);
  });

  test('Stripe down at init: 502 processor_error, never a 500', async () => {
    const shop = await connectedShop({ fake });
    fake.failNext(500, 10);
    const reply = await shop.init();
    fake.failNext(500, 0);
    expectError(reply, 502, 'processor_error');
  });
});
