import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { signatureHeader, startFakeStripe, stripeEvent, type FakeStripe } from '../support/fake-stripe.ts';
import { expectError } from '../http/fixtures.ts';
import { aPayment, completedEvent, connectedShop, deliver, openShop, retrievalsOf, WEBHOOK_SECRET } from './shop.ts';

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(() => fake.stop());

/** A connected Stripe shop with one session the buyer has paid at Stripe. */
async function paidSession() {
  const shop = await connectedShop({ fake });
  const { sessionId } = await shop.checkout();
  const stripeId = await shop.stripeId(sessionId);
  fake.markPaid(stripeId, aPayment());
  return { shop, sessionId, stripeId };
}

describe('POST /webhooks/stripe-events: signatures and deduplication', () => {
  test('a validly signed event is 200 {received: true} and acted on', async () => {
    const { shop, sessionId, stripeId } = await paidSession();
    const reply = await deliver(shop.api, completedEvent(stripeId, sessionId));
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ received: true });
    expect((await shop.status(sessionId)).body.status).toBe('complete');
  });

  test('the same event id again is 200 {received: true, duplicate: true} and has no second effect', async () => {
    const { shop, sessionId, stripeId } = await paidSession();
    const event = completedEvent(stripeId, sessionId);
    await deliver(shop.api, event);
    const license = (await shop.status(sessionId)).body.license.id;
    const asked = retrievalsOf(fake, stripeId);

    const again = await deliver(shop.api, event);

    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, duplicate: true });
    expect(retrievalsOf(fake, stripeId)).toBe(asked);
    expect(await shop.licensesOfBuyer(sessionId)).toEqual([license]);
  });

  test('a signature made with another secret is 400 invalid_signature and changes nothing', async () => {
    const { shop, sessionId, stripeId } = await paidSession();
    const reply = await deliver(shop.api, completedEvent(stripeId, sessionId), 'whsec_someone_else');
    expectError(reply, 400, 'invalid_signature');
    expect((await shop.api.deps.checkouts.findById(sessionId))?.licenseId).toBeNull();
  });

  test('a body altered after signing is 400 invalid_signature', async () => {
    const { shop, sessionId, stripeId } = await paidSession();
    const event = completedEvent(stripeId, sessionId);
    const signature = await signatureHeader(event, WEBHOOK_SECRET, Math.floor(shop.clock.now() / 1000));
    const altered = event.replace('"livemode":false', '"livemode":true');
    const reply = await shop.api.call('POST', '/webhooks/stripe-events', {
      rawBody: altered,
      headers: { 'stripe-signature': signature, 'content-type': 'application/json', 'content-length': String(altered.length) },
    });
    expectError(reply, 400, 'invalid_signature');
  });

  test('no Stripe-Signature header, or a junk one, is 400 invalid_signature', async () => {
    const { shop, sessionId, stripeId } = await paidSession();
    const event = completedEvent(stripeId, sessionId);
    for (const headers of [{}, { 'stripe-signature': 'junk' }, { 'stripe-signature': 't=1,v1=00' }, { 'stripe-signature': '' }] as Record<string, string>[]) {
      const reply = await shop.api.call('POST', '/webhooks/stripe-events', { rawBody: event, headers: { ...headers, 'content-length': String(event.length) } });
      expectError(reply, 400, 'invalid_signature');
    }
  });

  test('unsigned junk (malformed JSON, arrays, binary, empty) is 400 invalid_signature, never a 5xx', async () => {
    const shop = await connectedShop({ fake });
    for (const rawBody of ['', '{', 'null', '[]', '[{}]', '\u0000\u0001', 'x'.repeat(60_000), '{"__proto__": {"polluted": true}}']) {
      const reply = await shop.api.call('POST', '/webhooks/stripe-events', {
        rawBody,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(rawBody)), 'stripe-signature': 't=1,v1=00' },
      });
      expectError(reply, 400, 'invalid_signature');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('a signature older than 300 s is 400 invalid_signature', async () => {
    const { shop, sessionId, stripeId } = await paidSession();
    const event = completedEvent(stripeId, sessionId);
    const signature = await signatureHeader(event, WEBHOOK_SECRET, Math.floor(shop.clock.now() / 1000) - 301);
    const reply = await shop.api.call('POST', '/webhooks/stripe-events', {
      rawBody: event,
      headers: { 'stripe-signature': signature, 'content-length': String(event.length) },
    });
    expectError(reply, 400, 'invalid_signature');
  });

  test('a signed body that is not JSON, or JSON that is no event, is never a 5xx', async () => {
    const shop = await connectedShop({ fake });
    for (const body of ['not json', '{}', '[]', '{"id": 1, "type": {"x": 1}}', '{"id": "evt_x", "type": "checkout.session.completed", "data": null}']) {
      const reply = await deliver(shop.api, body);
      expect({ body, status: reply.status < 500 }).toEqual({ body, status: true });
    }
  });

  // Proxies may forward a webhook chunked; the signature covers the bytes, however they were framed.
  test('an event sent without Content-Length (chunked) is verified over the same raw bytes', async () => {
    const { shop, sessionId, stripeId } = await paidSession();
    const event = completedEvent(stripeId, sessionId);
    const signature = await signatureHeader(event, WEBHOOK_SECRET, Math.floor(shop.clock.now() / 1000));
    const request = new Request('http://localhost/v1/webhooks/stripe-events', {
      method: 'POST',
      headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
      body: new Blob([event]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(request.headers.get('content-length')).toBeNull();
    const response = await shop.api.app.handle(request);
    expect({ status: response.status, body: await response.json() }).toEqual({ status: 200, body: { received: true } });
  });
});

describe('POST /webhooks/stripe-events: when there is nothing to verify with', () => {
  test('no webhook secret configured: 404 not_found', async () => {
    const shop = await openShop({ fake, webhookSecret: null });
    expectError(await deliver(shop.api, stripeEvent('checkout.session.completed', {})), 404, 'not_found');
  });

  test('sandbox mode: 404 not_found', async () => {
    const shop = await openShop();
    expectError(await deliver(shop.api, stripeEvent('checkout.session.completed', {})), 404, 'not_found');
  });
});
