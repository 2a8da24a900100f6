import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE } from '../../src/adapters/http/examples.ts';
import { SANDBOX_CODE } from '../checkout/shop.ts';
import { freePort, spawnService, untilHealthy, type Spawned } from '../support/server-process.ts';
import { Replay, type Extra, type OpenApi, type Reply } from './openapi-replay.ts';

/**
 * Every example request of the API reference works on a fresh server, sent where "Try it out"
 * sends it: the document's `servers` URL joined to the path (a doubled /v1 would be a 404 here).
 * The steps run as a seller and a buyer would, in order; ids, keys and codes the examples cannot
 * know are captured from earlier answers (openapi-replay.ts).
 */

interface Step {
  name: string;
  status?: number;
  extra?: (replay: Replay) => Extra | Promise<Extra>;
  after?: (reply: Reply, replay: Replay) => void | Promise<void>;
}

/** Operations whose request no example can make; each is exercised elsewhere. */
const NOT_REPLAYED: Record<string, string> = {
  'POST /v1/webhooks/stripe-events': 'signed by Stripe; 404 without a webhook secret (test/stripe)',
  'POST /v1/auth/phone-link': 'its token is keyed by the master key and mailed in a receipt: no example can carry a valid one (test/security/customers/phone-link.test.ts)',
  'POST /v1/auth/phone-link/verify': 'as POST /v1/auth/phone-link (test/security/customers/phone-link.test.ts, test/browser/account-page.test.ts)',
  'GET /v1/sandbox/connect/authorize': 'the page a browser opens from POST /connect/start (test/browser/connect.test.ts)',
  'GET /v1/developers/console/session': 'needs the console’s HttpOnly cookie, which only a browser keeps (test/console/session-auth.test.ts)',
  'POST /v1/developers/passkeys/registration/options': 'only from a console session (test/console/passkeys.test.ts)',
  'POST /v1/developers/passkeys/registration/verify': 'needs an authenticator’s attestation (test/console/passkeys.test.ts)',
  'POST /v1/developers/login/passkey/verify': 'needs an authenticator’s signature (test/console/passkeys.test.ts)',
  'POST /v1/developers/passkeys/{id}/revoke': 'needs a registered passkey (test/console/passkeys.test.ts)',
  'GET /v1/account/receipts/{orderId}': 'its t is keyed by the master key and handed out in GET /customer/orders (test/http/customer-subscriptions.test.ts, test/browser/portal.test.ts)',
  'GET /v1/account/card/{id}': 'its link is keyed by the master key and handed out by POST /customer/card (test/http/customer-subscriptions.test.ts)',
  'POST /v1/account/card/{id}': 'as GET /v1/account/card/{id} (test/http/customer-subscriptions.test.ts)',
};

const codeTexted = async (replay: Replay, phone: string) => {
  const outbox = await fetch(`${replay.base}/v1/sandbox/outbox?to=${encodeURIComponent(phone)}`).then((r) => r.json());
  return /\b(\d{6})\b/.exec(outbox.data[0].body)![1]!;
};
const codeSent = (phone: string) => async (reply: Reply, replay: Replay) => {
  replay.capture('otpId', reply.body.otpId);
  replay.capture('otp', await codeTexted(replay, phone));
};
/** The sign-in code of a buyer without a confirmed phone goes by e-mail. */
const codeMailed = (email: string) => async (reply: Reply, replay: Replay) => {
  const mail = await fetch(`${replay.base}/v1/sandbox/mail?to=${encodeURIComponent(email)}`).then((r) => r.json());
  replay.capture('otpId', reply.body.otpId);
  // The newest mail carrying a code (receipts are mailed too).
  replay.capture('otp', mail.data.map((m: { text: string }) => /code is (\d{6})/.exec(m.text)?.[1]).find(Boolean)!);
};
/** The console's sign-in code goes to the seller's e-mail; its id is the loginId. */
const consoleCodeMailed = async (reply: Reply, replay: Replay) => {
  await codeMailed(EXAMPLE.sellerEmail)({ ...reply, body: { otpId: reply.body.loginId } }, replay);
};
/** The buyer confirms the checkout's phone (a code texted to it), so the card that checkout saved is offered. */
const confirmCheckoutPhone = async (replay: Replay): Promise<Extra> => {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${replay.credentials.identityToken}`, 'x-device-fingerprint': EXAMPLE.machineFingerprint };
  const post = (path: string, body: unknown) => fetch(`${replay.base}/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then((r) => r.json());
  const asked = await post('/customer/phone', { phone: EXAMPLE.phone });
  await post('/customer/phone/verify', { phone: EXAMPLE.phone, otpId: asked.otpId, otp: await codeTexted(replay, EXAMPLE.phone) });
  return {};
};
const connectState = { value: '' };

const machineOnExampleLicense = async (replay: Replay): Promise<Extra> => {
  const body = JSON.stringify({ licenseKey: replay.real(EXAMPLE.licenseKey), machineFingerprint: EXAMPLE.machineFingerprint });
  await fetch(`${replay.base}/v1/licenses/validate`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': replay.credentials.secretKey! }, body });
  return {};
};
const offerTrial = async (replay: Replay): Promise<Extra> => {
  const body = JSON.stringify({ trialDays: 14 });
  await fetch(`${replay.base}/v1/developers/products/${replay.real(EXAMPLE.productId)}`, { method: 'PATCH', headers: { 'content-type': 'application/json', 'x-api-key': replay.credentials.secretKey! }, body });
  return {};
};
const trialRequested = async (replay: Replay): Promise<Extra> => {
  const post = (path: string, key: string, body: unknown) =>
    fetch(`${replay.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(body) }).then((r) => r.json());
  const { key: publishableKey } = await post('/v1/developers/api-keys', replay.credentials.secretKey!, { scope: 'publishable' });
  const email = 'trial.buyer@example.com';
  const asked = await post('/v1/trials', publishableKey, { productId: replay.real(EXAMPLE.productId), email, machineFingerprint: 'a'.repeat(64) });
  replay.capture('trialRequestId', asked.trialRequestId);
  const mail = await fetch(`${replay.base}/v1/sandbox/mail?to=${encodeURIComponent(email)}`).then((r) => r.json());
  replay.capture('otp', /\b(\d{6})\b/.exec(mail.data[0].text)![1]!);
  return {};
};
/** A buyer subscribes to a new monthly product (checkout + sandbox Pay); the list is then filtered to that product. */
const subscribeMonthly = async (replay: Replay): Promise<Extra> => {
  const post = (path: string, body: unknown) =>
    fetch(`${replay.base}/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': replay.credentials.secretKey! }, body: JSON.stringify(body) }).then((r) => r.json());
  const product = await post('/developers/products', { name: 'Pro monthly', price: 900, currency: 'usd', interval: 'month' });
  const checkout = await post('/checkout/init', { productId: product.id });
  const form = new URLSearchParams({ email: 'subscriber@example.com', phone: '+15551230000', cardNumber: '4242 4242 4242 4242' });
  await fetch(`${replay.base}/v1/sandbox/checkout/${checkout.sessionId}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form, redirect: 'manual' });
  return { query: { productId: product.id } };
};
/** The subscription's checkout recorded an order: the refund example gives part of it back. */
const aPaidOrder = async (replay: Replay): Promise<Extra> => {
  const orders = await fetch(`${replay.base}/v1/developers/orders`, { headers: { 'x-api-key': replay.credentials.secretKey! } }).then((r) => r.json());
  replay.capture('orderId', orders.data[0].id);
  return {};
};
/** The example buyer subscribes to a monthly product too (the sandbox Pay form), so the buyer's subscription routes have one of theirs. */
const buyerSubscribes = async (replay: Replay): Promise<Extra> => {
  const post = (path: string, body: unknown) =>
    fetch(`${replay.base}/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': replay.credentials.secretKey! }, body: JSON.stringify(body) }).then((r) => r.json());
  const product = await post('/developers/products', { name: 'Team monthly', price: 1500, currency: 'usd', interval: 'month' });
  const checkout = await post('/checkout/init', { productId: product.id });
  const form = new URLSearchParams({ email: EXAMPLE.buyerEmail, phone: EXAMPLE.phone, cardNumber: '4242 4242 4242 4242' });
  await fetch(`${replay.base}/v1/sandbox/checkout/${checkout.sessionId}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form, redirect: 'manual' });
  return {};
};
const captureCustomerMachine = (reply: Reply, replay: Replay) => {
  const license = reply.body.data.find((l: { id: string }) => l.id === replay.real(EXAMPLE.licenseId));
  replay.capture('activationId', license.activations[0].id);
};

const STEPS: Step[] = [
  { name: 'GET /v1/health' },
  { name: 'GET /v1/health/live' },
  { name: 'GET /v1/health/ready' },
  {
    name: 'POST /v1/developers/signup', status: 201,
    after: (r, replay) => {
      replay.capture('developerId', r.body.id);
      replay.credentials.secretKey = r.body.apiKey;
    },
  },
  // The seller signs in to the console by a code mailed to the sign-up e-mail; the secret key reaches the session routes too.
  { name: 'POST /v1/developers/login', status: 202, after: consoleCodeMailed },
  { name: 'POST /v1/developers/login/verify' },
  { name: 'GET /v1/developers/console/sessions', after: (r, replay) => replay.capture('consoleSessionId', r.body.data[0].id) },
  { name: 'POST /v1/developers/console/sessions/{id}/revoke', status: 204 },
  { name: 'POST /v1/developers/console/sessions/revoke-all', status: 204 },
  { name: 'GET /v1/developers/passkeys' },
  { name: 'POST /v1/developers/login/passkey/options' },
  { name: 'POST /v1/developers/logout', status: 204 },
  { name: 'POST /v1/developers/products', status: 201, after: (r, replay) => replay.capture('productId', r.body.id) },
  { name: 'GET /v1/developers/products' },
  { name: 'PATCH /v1/developers/products/{id}' },
  { name: 'GET /v1/developers/{id}/jwks.json' },
  { name: 'POST /v1/developers/api-keys', status: 201, after: (r, replay) => replay.capture('apiKeyId', r.body.id) },
  { name: 'GET /v1/developers/api-keys' },
  { name: 'POST /v1/developers/api-keys/{id}/revoke' },
  // Registered while there is no internet: deliveries to the example address fail and are retried, which the log shows.
  { name: 'POST /v1/developers/webhook-endpoints', status: 201, after: (r, replay) => replay.capture('webhookEndpointId', r.body.id) },
  { name: 'GET /v1/developers/webhook-endpoints' },
  { name: 'GET /v1/developers/webhook-endpoints/{id}' },
  { name: 'PATCH /v1/developers/webhook-endpoints/{id}' },
  { name: 'POST /v1/developers/webhook-endpoints/{id}/rotate-secret' },
  {
    name: 'POST /v1/developers/webhook-endpoints/{id}/test',
    after: (r, replay) => {
      replay.capture('webhookDeliveryId', r.body.id);
      replay.capture('eventId', r.body.eventId);
    },
  },
  { name: 'GET /v1/developers/webhook-endpoints/{id}/deliveries' },
  { name: 'GET /v1/developers/webhook-deliveries/{id}' },
  { name: 'POST /v1/developers/webhook-deliveries/{id}/redeliver' },
  { name: 'POST /v1/developers/webhook-endpoints/{id}/redeliver' },
  { name: 'GET /v1/developers/events' },
  {
    name: 'POST /v1/developers/licenses', status: 201,
    after: (r, replay) => {
      replay.capture('licenseId', r.body.license.id);
      replay.capture('licenseKey', r.body.licenseKey);
    },
  },
  { name: 'GET /v1/developers/licenses' },
  { name: 'GET /v1/developers/customers' },
  { name: 'GET /v1/developers/orders' },
  { name: 'GET /v1/developers/stats' },
  // The example product gets a trial first (its create example has none).
  { name: 'POST /v1/trials', status: 201, extra: offerTrial },
  // The buyer's application asks with the publishable key (another e-mail and machine: the example's had the trial); the code comes by mail.
  { name: 'POST /v1/trials/confirm', status: 201, extra: trialRequested },
  { name: 'GET /v1/sandbox/mail' },
  { name: 'GET /v1/sandbox/mail/view' },
  { name: 'POST /v1/licenses/validate' },
  // The validation took a slot for the example machine: list it, remove it, activate again, then deactivate.
  { name: 'GET /v1/licenses/{id}/activations', after: (r, replay) => replay.capture('activationId', r.body.data[0].id) },
  { name: 'DELETE /v1/licenses/{id}/activations/{activationId}' },
  { name: 'POST /v1/licenses/activate', status: 201 },
  { name: 'POST /v1/licenses/activations' },
  { name: 'POST /v1/licenses/machine-file', status: 201 },
  { name: 'POST /v1/licenses/{id}/machine-files', status: 201 },
  { name: 'GET /v1/licenses/{id}/machine-files' },
  { name: 'PATCH /v1/licenses/{id}' },
  { name: 'POST /v1/licenses/deactivate' },
  // Floating leases are off until the seller gives the license (or product) seats.
  { name: 'PUT /v1/licenses/{id}/lease-terms' },
  { name: 'POST /v1/licenses/leases', status: 201, after: (r, replay) => replay.capture('leaseId', r.body.lease.id) },
  { name: 'POST /v1/licenses/leases/{id}/heartbeat' },
  { name: 'GET /v1/licenses/{id}/leases' },
  { name: 'POST /v1/licenses/leases/{id}/release' },
  { name: 'GET /v1/licenses/{id}' },
  { name: 'POST /v1/licenses/{id}/resend', status: 202 },
  { name: 'POST /v1/licenses/{id}/unbind' },
  { name: 'POST /v1/developers/signing-keys/rotate', status: 201 },
  { name: 'GET /v1/connect/status' },
  { name: 'POST /v1/connect/start', after: (r) => void (connectState.value = new URL(r.body.url).searchParams.get('state')!) },
  { name: 'GET /v1/connect/callback', extra: () => ({ query: { code: SANDBOX_CODE, state: connectState.value } }) },
  { name: 'POST /v1/checkout/init', status: 201, after: (r, replay) => replay.capture('sessionId', r.body.sessionId) },
  { name: 'GET /v1/checkout/status/{sessionId}' },
  { name: 'GET /v1/sandbox/checkout/{sessionId}' },
  {
    name: 'POST /v1/sandbox/checkout/{sessionId}/pay', status: 303,
    extra: () => ({ form: { email: EXAMPLE.buyerEmail, phone: EXAMPLE.phone, cardNumber: '4242 4242 4242 4242' } }),
  },
  { name: 'GET /v1/checkout/success' },
  { name: 'GET /v1/checkout/cancel' },
  { name: 'POST /v1/sandbox/checkout/{sessionId}/cancel', status: 303 },
  { name: 'GET /v1/developers/subscriptions', extra: subscribeMonthly, after: (r, replay) => replay.capture('subscriptionId', r.body.data[0].id) },
  { name: 'GET /v1/developers/subscriptions/{id}' },
  { name: 'POST /v1/developers/subscriptions/{id}/cancel' },
  { name: 'POST /v1/sandbox/clock' },
  { name: 'POST /v1/developers/orders/{id}/refund', extra: aPaidOrder },
  { name: 'POST /v1/auth/login/init', after: codeMailed(EXAMPLE.buyerEmail) },
  { name: 'GET /v1/sandbox/outbox' },
  { name: 'GET /v1/sandbox/outbox/view' },
  { name: 'POST /v1/auth/login/verify', after: (r, replay) => void (replay.credentials.identityToken = r.body.identityToken) },
  // The buyer's own license is the granted one (the example e-mail): the example machine validates again, so it has one to remove.
  { name: 'GET /v1/customer/licenses', extra: machineOnExampleLicense, after: captureCustomerMachine },
  { name: 'DELETE /v1/customer/licenses/{id}/activations/{activationId}' },
  // The buyer's portal for a machine with no network: the example request file, for the buyer's own license.
  { name: 'POST /v1/customer/licenses/{id}/machine-file', status: 201 },
  { name: 'GET /v1/account' },
  {
    name: 'POST /v1/purchase/init',
    extra: confirmCheckoutPhone,
    after: (r, replay) => {
      replay.capture('purchaseId', r.body.purchaseId);
      replay.capture('cardId', r.body.cards[0].id);
    },
  },
  { name: 'POST /v1/purchase/otp', after: codeSent(EXAMPLE.phone) },
  { name: 'POST /v1/purchase/confirm' },
  // The code of a phone change goes to the phone already confirmed.
  { name: 'POST /v1/customer/phone', after: codeSent(EXAMPLE.phone) },
  { name: 'POST /v1/customer/phone/verify' },
  { name: 'GET /v1/customer/subscriptions', extra: buyerSubscribes, after: (r, replay) => replay.capture('subscriptionId', r.body.data[0].id) },
  { name: 'POST /v1/customer/subscriptions/{id}/cancel' },
  { name: 'POST /v1/customer/subscriptions/{id}/resume' },
  { name: 'POST /v1/customer/card' },
  { name: 'GET /v1/customer/orders' },
  // Re-signs the example license (a new key): after every step that presents its key.
  { name: 'PUT /v1/licenses/{id}/entitlements' },
  { name: 'POST /v1/licenses/{id}/revoke' },
  { name: 'POST /v1/auth/logout' },
  { name: 'DELETE /v1/developers/webhook-endpoints/{id}' },
];

let service: Spawned;
let dir: string;
let document: OpenApi;
const replies = new Map<string, Reply>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'licensing-openapi-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // The webhook example's host is a real name, which registration resolves: nothing is resolved
  // from here (nothing leaves 127.0.0.1), so this service skips that check (docs/webhooks.md).
  const env = { PORT: String(port), PUBLIC_BASE_URL: url, DATABASE_URL: `sqlite:${join(dir, 'licensing.db')}`, LOG_LEVEL: 'info', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' };
  service = { ...(await spawnService(env, { inheritEnv: false })), url };
  await untilHealthy(service);
  document = await fetch(`${url}/v1/openapi.json`).then((r) => r.json());
  const replay = new Replay(document);
  for (const step of STEPS) {
    const reply = await replay.send(step.name, await step.extra?.(replay));
    replies.set(step.name, reply);
    if (reply.status !== (step.status ?? 200)) break; // the steps after it depend on it
    await step.after?.(reply, replay);
  }
}, 60_000);

afterAll(async () => {
  service?.kill();
  await service?.exited;
  rmSync(dir, { recursive: true, force: true });
});

test('every operation of the document is replayed, or named with the reason it cannot be', () => {
  const documented = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
  const accounted = [...STEPS.map((s) => s.name), ...Object.keys(NOT_REPLAYED)];

  expect([...accounted].sort()).toEqual([...documented].sort());
});

describe('each example, sent through the servers URL, is answered as documented', () => {
  test.each(STEPS.map((s) => [s.name, s] as const))('%s', (name, step) => {
    const reply = replies.get(name);
    const status = step.status ?? 200;

    expect({ name, status: reply?.status, body: reply && reply.status !== status ? reply.body : undefined }).toEqual({ name, status, body: undefined });
    if (reply!.type.includes('json')) {
      for (const field of new Replay(document).requiredFields(name, status)) expect(reply!.body).toHaveProperty(field);
    }
  });
});

describe('the examples meet real state', () => {
  test('the license was bound to the example fingerprint, and the purchase made a second license', () => {
    expect(replies.get('POST /v1/licenses/validate')!.body).toMatchObject({ valid: true });
    expect(replies.get('POST /v1/purchase/confirm')!.body.licenseKey).toEqual(expect.any(String));
  });

  test('the phone change moved the customer to the example’s new phone', () => {
    expect(replies.get('POST /v1/customer/phone/verify')!.body.phoneMasked).toEndWith(EXAMPLE.newPhone.slice(-4));
  });
});

describe('what "Try it out" sends before anyone edits it', () => {
  test.each(['GET /v1/developers/products', 'GET /v1/developers/licenses'])('%s with its examples as they stand answers 200', async (name) => {
    const literal = new Replay(document);
    literal.credentials.secretKey = replies.get('POST /v1/developers/signup')!.body.apiKey;

    const reply = await literal.send(name);

    expect({ name, status: reply.status, body: reply.status === 200 ? undefined : reply.body }).toEqual({ name, status: 200, body: undefined });
  });
});

describe('start-up and the service’s own address', () => {
  test('start-up prints one human line on stderr with the API reference’s URL, which answers; stdout stays JSON', async () => {
    const docs = `${service.url}/v1/docs`;
    const stdout = service.stdout().split('\n').filter((line) => line.trim() !== '');
    const stderr = service.output().split('\n').filter((line) => line.trim() !== '' && !stdout.includes(line));

    expect(stderr).toEqual([expect.stringContaining(`API reference: ${docs}`)]);
    for (const line of stdout) expect(() => JSON.parse(line)).not.toThrow();
    expect((await fetch(docs)).status).toBe(200);
  });

  test('with LOG_LEVEL=warn start-up prints nothing at all', async () => {
    const quiet = await spawnService({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'warn' }, { inheritEnv: false });
    await untilHealthy(quiet);
    quiet.kill();
    await quiet.exited;

    expect(quiet.output()).toBe('');
  });

  test.each(['/', '/v1'])('GET %s on the running service leads a browser to the API reference', async (path) => {
    const response = await fetch(`${service.url}${path}`, { headers: { accept: 'text/html' } });

    expect(response.url).toBe(`${service.url}/v1/docs`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Licensing API reference');
  });
});
