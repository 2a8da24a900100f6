import { expect } from 'bun:test';
import { SANDBOX_CODE_PREFIX } from '../../src/adapters/sandbox/sandbox-processor.ts';
import { StripeProcessor } from '../../src/adapters/stripe/stripe-processor.ts';
import type { Completion } from '../../src/domain/checkout-session.ts';
import { depsFor, sqliteDeps } from '../support/deps.ts';
import { CONNECTED_ACCOUNT, GOOD_CODE, signatureHeader, stripeEvent, type FakeStripe, type PaidDetails } from '../support/fake-stripe.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';

/**
 * A shop on the HTTP app over a real in-memory SQLite store: a seller with a product, in sandbox
 * mode or with Stripe (the local fake, through the official SDK).
 */

export const SECRET_KEY = 'sk_test_checkout_platform';
export const WEBHOOK_SECRET = 'whsec_test_checkout_platform';
export const CONNECT_CLIENT_ID = 'ca_test_checkout_platform';
/** A code the sandbox processor accepts (the sandbox authorize page mints such codes). */
export const SANDBOX_CODE = `${SANDBOX_CODE_PREFIX}abcdefgh12345678`;

export type Mode = 'sandbox' | 'stripe';

export interface ShopOptions {
  /** With Stripe: the fake to talk to. Without: the sandbox processor. */
  fake?: FakeStripe;
  /** With Stripe: null = no webhook secret configured. */
  webhookSecret?: string | null;
}

export async function openShop(options: ShopOptions = {}) {
  const { deps, store } = sqliteDeps();
  const shop = await shopOn(deps, options);
  /** Licenses of the customer that a session was completed for, counted in the database itself. */
  const licensesOfBuyer = async (sessionId: string) => {
    const session = await shop.api.deps.checkouts.findById(sessionId);
    const rows = store.sqlite.query('SELECT id FROM licenses WHERE customer_id = ?').all(session!.customerId!) as { id: string }[];
    return rows.map((r) => r.id);
  };
  return { ...shop, store, licensesOfBuyer };
}

/** The same shop over any store's deps (PostgreSQL too), without the SQLite-only helpers. */
export async function shopOn(deps: ReturnType<typeof depsFor>, options: ShopOptions = {}) {
  if (options.fake) {
    deps.processor = new StripeProcessor({
      secretKey: SECRET_KEY,
      webhookSecret: options.webhookSecret === undefined ? WEBHOOK_SECRET : options.webhookSecret,
      connectClientId: CONNECT_CLIENT_ID,
      apiBase: options.fake.url,
      clock: deps.clock,
    });
  }
  const api = testApi({ deps });
  const goodCode = options.fake ? GOOD_CODE : SANDBOX_CODE;
  const dev = await seller(api);

  /** POST /connect/start with this key, and the state its URL carries. */
  const start = async (key = dev.apiKey) => {
    const reply = await api.call('POST', '/connect/start', { key });
    return { reply, state: reply.status === 200 ? new URL(reply.body.url).searchParams.get('state')! : '' };
  };
  const callback = (query: Record<string, string>) => api.call('GET', `/connect/callback?${new URLSearchParams(query)}`);
  /** The whole Connect flow for a developer (default: this shop's seller). */
  const connect = async (key = dev.apiKey) => callback({ code: goodCode, state: (await start(key)).state });
  const connectStatus = async (key = dev.apiKey) => (await api.call('GET', '/connect/status', { key })).body;

  /** `key` null: no X-API-Key at all. */
  const init = (body: Record<string, unknown> = {}, key: string | null = dev.apiKey) =>
    api.call('POST', '/checkout/init', { key: key ?? undefined, body: { productId: dev.product.id, ...body } });
  /** A pending session of a connected seller. */
  const checkout = async (body: Record<string, unknown> = {}) => {
    const reply = await init(body);
    if (reply.status !== 201) throw new Error(`checkout init failed: ${JSON.stringify(reply.body)}`);
    return reply.body as { sessionId: string; checkoutUrl: string };
  };
  const status = (sessionId: string) => api.call('GET', `/checkout/status/${sessionId}`);
  const validate = (licenseKey: string, machineFingerprint = 'machine-1') =>
    api.call('POST', '/licenses/validate', { key: dev.publishableKey, body: { licenseKey, machineFingerprint } });

  /** Stripe's id for one of our sessions. */
  const stripeId = async (sessionId: string) => (await api.deps.checkouts.findById(sessionId))!.processorSessionId!;
  /** With Stripe: a one-off sale paid at Stripe and completed by its webhook; the order and what paid it. */
  const stripeSale = async (email = 'buyer@example.com') => {
    const fake = options.fake;
    if (!fake) throw new Error('stripeSale needs a shop with the Stripe fake');
    const { sessionId } = await checkout({ email });
    const payment = aPayment({ email });
    fake.markPaid(await stripeId(sessionId), payment);
    await deliver(api, fake.completedEvent(await stripeId(sessionId)));
    return { order: (await api.deps.orders.findBySource(sessionId))!, payment };
  };

  return { api, clock: api.clock, dev, goodCode, start, callback, connect, connectStatus, init, checkout, status, validate, stripeId, stripeSale };
}

export type Shop = Awaited<ReturnType<typeof openShop>>;

/** A shop whose seller has already connected. */
export async function connectedShop(options: ShopOptions = {}): Promise<Shop> {
  const shop = await openShop(options);
  const reply = await shop.connect();
  if (reply.status !== 200) throw new Error(`connect failed: ${JSON.stringify(reply.body)}`);
  return shop;
}

/** What a buyer paid with, as the sandbox or a Stripe retrieval reports it. */
export function aCompletion(overrides: Partial<Completion> = {}): Completion {
  return {
    email: 'buyer@example.com',
    phone: '+15550100000',
    processorCustomerId: 'cus_buyer',
    paymentId: 'pi_buyer',
    card: { processorPaymentMethodId: 'pm_buyer', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 },
    ...overrides,
  };
}

/** What the Stripe fake reports once a session is paid. */
export function aPayment(overrides: Partial<PaidDetails> = {}): PaidDetails {
  return {
    email: 'buyer@example.com',
    phone: '+15550100000',
    customerId: 'cus_StripeBuyer',
    paymentIntentId: `pi_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`,
    card: { id: 'pm_StripeCard', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 },
    ...overrides,
  };
}

/** A Stripe Checkout Session object as events carry it. */
export function sessionObject(stripeSessionId: string, ourSessionId: string | null, fields: Record<string, unknown> = {}) {
  return {
    id: stripeSessionId,
    object: 'checkout.session',
    client_reference_id: ourSessionId,
    metadata: ourSessionId ? { checkout_session_id: ourSessionId } : {},
    status: 'complete',
    payment_status: 'paid',
    ...fields,
  };
}

export const completedEvent = (stripeSessionId: string, ourSessionId: string | null, type = 'checkout.session.completed') =>
  stripeEvent(type, sessionObject(stripeSessionId, ourSessionId), CONNECTED_ACCOUNT);

/** POSTs the raw event with a Stripe-Signature made by the SDK's own helper at the api's clock. */
export async function deliver(api: TestApi, body: string, secret = WEBHOOK_SECRET) {
  const signature = await signatureHeader(body, secret, Math.floor(api.clock.now() / 1000));
  return api.call('POST', '/webhooks/stripe-events', {
    rawBody: body,
    // Stripe sends a Content-Length; app.handle does not add one to a string body by itself.
    headers: { 'stripe-signature': signature, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) },
  });
}

/** The fake's GETs of one Stripe session: how often the service asked Stripe about it. */
export const retrievalsOf = (fake: FakeStripe, stripeSessionId: string) =>
  fake.requests.filter((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${stripeSessionId}`).length;

/**
 * A monthly product ($9) bought at (fake) Stripe: connected, checked out and paid there, no event
 * delivered yet. What the subscription tests of webhooks start from.
 */
export async function monthlyPaidAtStripe(shop: Awaited<ReturnType<typeof shopOn>>, fake: FakeStripe) {
  expect((await shop.connect()).status).toBe(200);
  const product = (await shop.api.call('POST', '/developers/products', { key: shop.dev.apiKey, body: { name: 'Pro monthly', price: 900, currency: 'usd', interval: 'month' } })).body;
  const { sessionId } = await shop.checkout({ productId: product.id, email: 'buyer@example.com' });
  const stripeId = await shop.stripeId(sessionId);
  fake.markPaid(stripeId, aPayment());
  return { product, sessionId, stripeId, subscriptionId: fake.subscriptionOf(stripeId) };
}
