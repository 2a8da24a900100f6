import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { randomBytes } from 'node:crypto';
import { CONNECTED_ACCOUNT, GOOD_CODE, signatureHeader, startFakeStripe, stripeEvent, type FakeStripe } from '../support/fake-stripe.ts';
import { startFakeTwilio } from '../support/fake-twilio.ts';
import { startServer, type RunningServer } from '../support/server-process.ts';
import { aPayment, sessionObject } from './shop.ts';

/**
 * The real server process, configured for Stripe, talking to the local fake through the official SDK.
 * Live payments start only beside live SMS, so the fake Twilio is configured too.
 */

const WEBHOOK_SECRET = 'whsec_test';
let fake: FakeStripe;
let server: RunningServer;
const twilio = startFakeTwilio();

let smtp: SmtpSink;
beforeAll(async () => {
  fake = await startFakeStripe();
  smtp = await startSmtpSink();
  server = await startServer({
    DATABASE_URL: 'sqlite::memory:',
    STRIPE_SECRET_KEY: 'sk_test_x',
    STRIPE_CONNECT_CLIENT_ID: 'ca_test',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_FROM: '+15550009999',
    TWILIO_API_BASE: twilio.url,
    MASTER_KEY: randomBytes(32).toString('base64'),
    SMTP_URL: smtp.url,
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  fake?.stop();
  twilio.stop();
  await smtp?.close();
});

async function call(method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string>; rawBody?: string } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['x-api-key'] = options.key;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.url}/v1${path}`, {
    method,
    headers,
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    redirect: 'manual',
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: response.headers, body };
}

describe('the server process with Stripe configured', () => {
  test('a seller connects, a buyer pays at Stripe, the signed webhook arrives, the poll returns a license that validates', async () => {
    const signup = await call('POST', '/developers/signup', { body: { email: 'seller@example.com', name: 'Seller' } });
    const { apiKey, publishableKey } = signup.body;
    const product = await call('POST', '/developers/products', { key: apiKey, body: { name: 'Pro', price: 1999, currency: 'usd', features: ['pro'] } });

    const start = await call('POST', '/connect/start', { key: apiKey });
    const authorize = new URL(start.body.url);
    expect(authorize.origin).toBe(fake.url);
    const callback = new URL(authorize.searchParams.get('redirect_uri')!);
    callback.searchParams.set('code', GOOD_CODE);
    callback.searchParams.set('state', authorize.searchParams.get('state')!);
    const connected = await call('GET', `/connect/callback${callback.search}`);
    expect(connected.status).toBe(200);
    expect((await call('GET', '/connect/status', { key: apiKey })).body).toEqual({ connected: true, accountId: CONNECTED_ACCOUNT });

    const init = await call('POST', '/checkout/init', { key: publishableKey, body: { productId: product.body.id, email: 'buyer@example.com' } });
    expect(init.status).toBe(201);
    const stripeId = new URL(init.body.checkoutUrl).pathname.split('/').pop()!;
    expect(stripeId).toStartWith('cs_test_');
    expect((await call('GET', `/checkout/status/${init.body.sessionId}`)).body).toEqual({ status: 'pending' });

    fake.markPaid(stripeId, aPayment());
    const event = stripeEvent('checkout.session.completed', sessionObject(stripeId, init.body.sessionId), CONNECTED_ACCOUNT);
    const signature = await signatureHeader(event, WEBHOOK_SECRET, Math.floor(Date.now() / 1000));
    const webhook = await call('POST', '/webhooks/stripe-events', { rawBody: event, headers: { 'stripe-signature': signature, 'content-type': 'application/json' } });
    expect(webhook.status).toBe(200);
    expect(webhook.body).toEqual({ received: true });

    const status = await call('GET', `/checkout/status/${init.body.sessionId}`);
    // No asymmetric matcher inside toMatchObject here: Bun 1.4.5 writes the matcher into the received object.
    expect(status.body).toMatchObject({ status: 'complete', license: { productId: product.body.id, status: 'active', features: ['pro'] } });
    expect(typeof status.body.licenseKey).toBe('string');
    const validation = await call('POST', '/licenses/validate', { key: publishableKey, body: { licenseKey: status.body.licenseKey, machineFingerprint: 'e2e-machine' } });
    expect(validation.body).toMatchObject({ valid: true, license: { id: status.body.license.id } });
  }, 30_000);

  test('a webhook signed with another secret is 400 invalid_signature', async () => {
    const event = stripeEvent('checkout.session.completed', sessionObject('cs_test_x', null));
    const signature = await signatureHeader(event, 'whsec_wrong', Math.floor(Date.now() / 1000));
    const reply = await call('POST', '/webhooks/stripe-events', { rawBody: event, headers: { 'stripe-signature': signature, 'content-type': 'application/json' } });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('invalid_signature');
  });

  test('nothing under /v1/sandbox exists: JSON 404s', async () => {
    for (const [method, path] of [
      ['GET', '/sandbox/checkout/cs_anything'],
      ['POST', '/sandbox/checkout/cs_anything/pay'],
      ['GET', '/sandbox/connect/authorize?state=x&redirect_uri=x'],
      ['GET', '/sandbox/outbox?to=%2B15550100000'],
    ] as const) {
      const reply = await call(method, path);
      expect({ path, status: reply.status, code: reply.body?.error?.code }).toEqual({ path, status: 404, code: 'not_found' });
    }
  });
});
