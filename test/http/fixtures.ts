import { confirmPhone, customerAuth, loginCode as codeOfLogin } from '../support/sign-in.ts';
import { expect } from 'bun:test';
import { generateKeyPairSync, sign } from 'node:crypto';
import { completeCheckout } from '../../src/app/checkout/complete-checkout.ts';
import { utf8 } from '../../src/domain/base64url.ts';
import { assembleLicenseKey, signingInputFor, type LicenseClaims } from '../../src/domain/license-key.ts';
import { TEST_ISSUER } from '../support/deps.ts';
import { seller, testApi, type Reply, type TestApi } from '../support/http.ts';
import { SANDBOX_CODE } from '../checkout/shop.ts';
import { aSandboxSubscription } from '../subscriptions/subscriber.ts';

/** CONTRACT.md's error shape, with the status it travels with. */
export function expectError(reply: Reply, status: number, code?: string) {
  expect(reply.status).toBe(status);
  expect(reply.body).toEqual({
    error: { code: code ?? expect.stringMatching(/^[a-z]+(_[a-z]+)*$/), message: expect.any(String), ...(reply.body?.error?.details !== undefined && { details: expect.any(Object) }) },
  });
  expect(reply.body.error.message.length).toBeGreaterThan(0);
}

/** Never a 5xx; any non-2xx is the contract's JSON error. */
export function expectHandled(reply: Reply) {
  expect(reply.status).toBeLessThan(500);
  if (reply.status >= 300) expectError(reply, reply.status);
}

/**
 * Two developers: `mine` with a product, a granted license, a connected (sandbox) account and a
 * pending checkout; and `other`. Plus a customer of `mine` who bought in the checkout (phone and card
 * on file) and logged in: their identity token, an unused login code, and a purchase with its code.
 */
export async function world(api: TestApi = testApi(), options: { customer?: boolean } = {}) {
  const mine = await seller(api);
  // With a trial, so POST /trials has something to start.
  await api.call('PATCH', `/developers/products/${mine.product.id}`, { key: mine.apiKey, body: { trialDays: 14 } });
  const other = await seller(api);
  const issued = await mine.grant();
  await connectInSandbox(api, mine.apiKey);
  // A buyer subscribed to a monthly product of `mine`, for the subscription routes.
  const subscriptionId = await aSandboxSubscription(api, mine.apiKey);
  // The order its checkout recorded, for the refund route.
  const orderId = (await api.deps.orders.listByDeveloper(mine.id, { limit: 1 })).data[0]!.id;
  const checkout = await api.call('POST', '/checkout/init', { key: mine.apiKey, body: { productId: mine.product.id } });
  if (checkout.status !== 201) throw new Error(`checkout init failed: ${JSON.stringify(checkout.body)}`);
  // A second secret key of `mine`, so its revocation route can succeed without locking anyone out.
  const spareKey = await api.call('POST', '/developers/api-keys', { key: mine.apiKey, body: { scope: 'secret' } });
  if (spareKey.status !== 201) throw new Error(`api key creation failed: ${JSON.stringify(spareKey.body)}`);
  const customer = options.customer === false ? NO_CUSTOMER : await aCustomer(api, mine.apiKey, mine.product.id);
  // The license runs on the table's machine (the fingerprint its validate and activate bodies send), so its activation routes have one to find.
  const activated = await api.call('POST', '/licenses/activate', { key: mine.publishableKey, body: { licenseKey: issued.licenseKey, machineFingerprint: 'fp-table' } });
  if (activated.status !== 201) throw new Error(`activation failed: ${JSON.stringify(activated.body)}`);
  // Floating leases for the license, and the table's machine holding one, for the lease routes.
  await api.call('PUT', `/licenses/${issued.license.id}/lease-terms`, { key: mine.apiKey, body: { maxLeases: 5, leaseSeconds: null, maxBorrowHours: null } });
  const leased = await api.call('POST', '/licenses/leases', { key: mine.publishableKey, body: { licenseKey: issued.licenseKey, machineFingerprint: 'fp-table' } });
  if (leased.status !== 201) throw new Error(`lease failed: ${JSON.stringify(leased.body)}`);
  // A webhook endpoint of `mine` with one delivery in its log (a test event), for the webhook routes.
  const hook = await api.call('POST', '/developers/webhook-endpoints', { key: mine.apiKey, body: { url: 'https://hooks.example.com/licensing' } });
  const hookTest = await api.call('POST', `/developers/webhook-endpoints/${hook.body.id}/test`, { key: mine.apiKey });
  if (hookTest.status !== 200) throw new Error(`webhook endpoint set-up failed: ${JSON.stringify(hook.body)} ${JSON.stringify(hookTest.body)}`);
  // A trial asked for with the publishable key, and its mailed code, for POST /trials/confirm.
  const trialEmail = 'table.trial@example.com';
  const asked = await api.call('POST', '/trials', { key: mine.publishableKey, body: { productId: mine.product.id, email: trialEmail, machineFingerprint: 'fp-trial-request' } });
  if (asked.status !== 202) throw new Error(`trial request failed: ${JSON.stringify(asked.body)}`);
  const mailed = await api.call('GET', `/sandbox/mail?to=${encodeURIComponent(trialEmail)}`);
  const trialRequest = { trialRequestId: asked.body.trialRequestId as string, otp: /\b(\d{6})\b/.exec(mailed.body.data[0].text)![1]! };
  return {
    api, mine, other, customer, license: issued.license, trialRequest, licenseKey: issued.licenseKey, sessionId: checkout.body.sessionId as string, spareKeyId: spareKey.body.id as string,
    activationId: activated.body.activation.id as string,
    leaseId: leased.body.lease.id as string,
    webhookEndpointId: hook.body.id as string, webhookDeliveryId: hookTest.body.id as string, subscriptionId, orderId,
  };
}

export const CUSTOMER = { email: 'table.customer@example.com', phone: '+15551234567', device: 'fp-table' };

/** Stands in for the customer in worlds whose tests never call a customer's route (it costs a dozen requests). */
const NO_CUSTOMER = {
  ...CUSTOMER,
  token: 'idt_none',
  auth: customerAuth('idt_none', CUSTOMER.device),
  login: { otpId: 'otp_none', otp: '000000' },
  purchase: { purchaseId: 'pur_none', otpId: 'otp_none', otp: '000000', cardId: 'card_none' },
  phoneChange: { otpId: 'otp_none', otp: '000000', phone: '+15550000000' },
  license: { id: 'lic_none', activationId: 'act_none', licenseKey: 'none' },
  subscriptionId: 'sub_none',
};

/** The routes that need the world's customer (its token, codes or purchase). */
export const usesCustomer = (name: string) => /\/(auth|purchase|customer)\/|\/sandbox\/outbox/.test(name);

/** A world for the tests of one route: the customer is made only when that route needs one. */
export const worldFor = (name: string) => world(testApi(), { customer: usesCustomer(name) });

/** A world for tests of developer routes only. */
export const developerWorld = () => world(testApi(), { customer: false });

/** The newest code texted to this phone, read from the sandbox outbox. */
export async function latestCode(api: TestApi, phone: string): Promise<string> {
  const outbox = await api.call('GET', `/sandbox/outbox?to=${encodeURIComponent(phone)}`);
  const code = /\b(\d{6})\b/.exec(outbox.body?.data?.[0]?.body ?? '')?.[1];
  if (!code) throw new Error(`no code texted to ${phone}`);
  return code;
}

const NEW_PHONE = '+15557654000';

/** A customer who paid a checkout (phone and card saved), logged in, and has a purchase and a phone change waiting for their codes. */
export async function aCustomer(api: TestApi, apiKey: string, productId: string, who = CUSTOMER) {
  const checkout = await api.call('POST', '/checkout/init', { key: apiKey, body: { productId } });
  const card = { processorPaymentMethodId: `pm_sandbox_${crypto.randomUUID().slice(0, 8)}`, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 };
  await completeCheckout(api.deps, checkout.body.sessionId, { email: who.email, phone: who.phone, processorCustomerId: 'cus_table', paymentId: null, card });
  const loginCode = async () => {
    const init = await api.call('POST', '/auth/login/init', { body: { email: who.email } });
    if (init.status !== 200) throw new Error(`login init failed: ${JSON.stringify(init.body)}`);
    return { otpId: init.body.otpId as string, otp: await codeOfLogin(api.call, init, who) };
  };
  const first = await loginCode();
  const verified = await api.call('POST', '/auth/login/verify', { body: { email: who.email, deviceFingerprint: who.device, ...first } });
  if (verified.status !== 200) throw new Error(`login failed: ${JSON.stringify(verified.body)}`);
  const token = verified.body.identityToken as string;
  await confirmPhone(api.call, token, who.phone, who.device);
  // The license the checkout issued runs on the customer's machine, so the buyer's self-service routes have one to remove.
  const own = verified.body.licenses[0];
  const machine = await api.call('POST', '/licenses/activate', { key: apiKey, body: { licenseKey: own.licenseKey, machineFingerprint: who.device } });
  if (machine.status !== 201) throw new Error(`activation failed: ${JSON.stringify(machine.body)}`);
  const unusedLogin = await loginCode();
  const auth = customerAuth(token, who.device);
  const purchase = await api.call('POST', '/purchase/init', { headers: auth, body: { productId } });
  const otp = await api.call('POST', '/purchase/otp', { headers: auth, body: { purchaseId: purchase.body.purchaseId } });
  const purchaseCode = await latestCode(api, who.phone);
  // A monthly subscription of their own, for the buyer's subscription routes.
  const subscriptionId = await aSandboxSubscription(api, apiKey, { email: who.email, phone: who.phone });
  // A pending change of the confirmed phone (its code goes to the confirmed phone).
  const change = await api.call('POST', '/customer/phone', { headers: auth, body: { phone: NEW_PHONE } });
  return {
    ...who,
    token,
    /** The token's headers: `Authorization: Bearer idt_…` and its device's `X-Device-Fingerprint`. */
    auth,
    login: unusedLogin,
    purchase: { purchaseId: purchase.body.purchaseId as string, otpId: otp.body.otpId as string, otp: purchaseCode, cardId: purchase.body.cards[0].id as string },
    phoneChange: { otpId: change.body.otpId as string, otp: await latestCode(api, who.phone), phone: NEW_PHONE },
    license: { id: own.id as string, activationId: machine.body.activation.id as string, licenseKey: own.licenseKey as string },
    subscriptionId,
  };
}

/** The Connect flow of sandbox mode, minus its authorize page: start, then the callback with a sandbox code. */
async function connectInSandbox(api: TestApi, apiKey: string) {
  const start = await api.call('POST', '/connect/start', { key: apiKey });
  const state = new URL(start.body.url).searchParams.get('state')!;
  const callback = await api.call('GET', `/connect/callback?${new URLSearchParams({ code: SANDBOX_CODE, state })}`);
  if (callback.status !== 200) throw new Error(`connect failed: ${JSON.stringify(callback.body)}`);
}

export type World = Awaited<ReturnType<typeof world>>;
/** `customer`: an identity token as `Authorization: Bearer idt_…`. */
export type Auth = 'none' | 'secret' | 'any' | 'customer';

export interface Route {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** With no argument, the path of `mine`'s own resource. */
  path: (id?: string) => string;
  auth: Auth;
  /** A valid body; a function so each call can be unique (signup e-mails). */
  body?: () => Record<string, unknown>;
  /** The route names a resource in its path (`:id`). */
  hasIdParam?: boolean;
}

let unique = 0;

/** Every route of issues 2, 3 and 4, so no loop forgets one. */
export function routeTable(w: World): Route[] {
  const product = w.mine.product.id as string;
  const license = w.license.id as string;
  const session = w.sessionId;
  const { customer } = w;
  const outbox = `?to=${encodeURIComponent(customer.phone)}`;
  return [
    { name: 'GET /health', method: 'GET', path: () => '/health', auth: 'none' },
    { name: 'GET /openapi.json', method: 'GET', path: () => '/openapi.json', auth: 'none' },
    { name: 'GET /docs', method: 'GET', path: () => '/docs', auth: 'none' },
    { name: 'POST /developers/signup', method: 'POST', path: () => '/developers/signup', auth: 'none', body: () => ({ email: `new${++unique}@example.com`, name: 'New' }) },
    { name: 'GET /developers/:id/jwks.json', method: 'GET', path: (id = w.mine.id) => `/developers/${id}/jwks.json`, auth: 'none', hasIdParam: true },
    { name: 'POST /developers/products', method: 'POST', path: () => '/developers/products', auth: 'secret', body: () => ({ name: 'Basic', price: 500, currency: 'eur', features: ['basic'], licenseDays: 30 }) },
    { name: 'GET /developers/products', method: 'GET', path: () => '/developers/products', auth: 'secret' },
    { name: 'PATCH /developers/products/:id', method: 'PATCH', path: (id = product) => `/developers/products/${id}`, auth: 'secret', body: () => ({ name: 'Pro 2' }), hasIdParam: true },
    { name: 'POST /developers/licenses', method: 'POST', path: () => '/developers/licenses', auth: 'secret', body: () => ({ productId: product, email: 'buyer@example.com' }) },
    { name: 'GET /developers/licenses', method: 'GET', path: () => '/developers/licenses', auth: 'secret' },
    { name: 'GET /developers/customers', method: 'GET', path: () => '/developers/customers', auth: 'secret' },
    { name: 'GET /developers/orders', method: 'GET', path: () => '/developers/orders', auth: 'secret' },
    { name: 'GET /developers/stats', method: 'GET', path: () => '/developers/stats', auth: 'secret' },
    { name: 'POST /developers/orders/:id/refund', method: 'POST', path: (id = w.orderId) => `/developers/orders/${id}/refund`, auth: 'secret', hasIdParam: true },
    { name: 'GET /developers/subscriptions', method: 'GET', path: () => '/developers/subscriptions', auth: 'secret' },
    { name: 'GET /developers/subscriptions/:id', method: 'GET', path: (id = w.subscriptionId) => `/developers/subscriptions/${id}`, auth: 'secret', hasIdParam: true },
    { name: 'POST /developers/subscriptions/:id/cancel', method: 'POST', path: (id = w.subscriptionId) => `/developers/subscriptions/${id}/cancel`, auth: 'secret', hasIdParam: true },
    { name: 'GET /developers/api-keys', method: 'GET', path: () => '/developers/api-keys', auth: 'secret' },
    { name: 'POST /developers/api-keys', method: 'POST', path: () => '/developers/api-keys', auth: 'secret', body: () => ({ scope: 'publishable' }) },
    { name: 'POST /developers/api-keys/:id/revoke', method: 'POST', path: (id = w.spareKeyId) => `/developers/api-keys/${id}/revoke`, auth: 'secret', hasIdParam: true },
    { name: 'POST /developers/signing-keys/rotate', method: 'POST', path: () => '/developers/signing-keys/rotate', auth: 'secret', body: () => ({ notBefore: 0 }) },
    ...webhookRoutes(w),
    { name: 'GET /licenses/:id', method: 'GET', path: (id = license) => `/licenses/${id}`, auth: 'secret', hasIdParam: true },
    { name: 'POST /licenses/validate', method: 'POST', path: () => '/licenses/validate', auth: 'any', body: () => ({ licenseKey: w.licenseKey, machineFingerprint: 'fp-table' }) },
    { name: 'POST /licenses/:id/unbind', method: 'POST', path: (id = license) => `/licenses/${id}/unbind`, auth: 'secret', hasIdParam: true },
    { name: 'POST /licenses/activate', method: 'POST', path: () => '/licenses/activate', auth: 'any', body: () => ({ licenseKey: w.licenseKey, machineFingerprint: 'fp-table', name: 'table-host' }) },
    { name: 'POST /licenses/deactivate', method: 'POST', path: () => '/licenses/deactivate', auth: 'any', body: () => ({ licenseKey: w.licenseKey, machineFingerprint: 'fp-table' }) },
    { name: 'POST /licenses/activations', method: 'POST', path: () => '/licenses/activations', auth: 'any', body: () => ({ licenseKey: w.licenseKey }) },
    { name: 'POST /licenses/leases', method: 'POST', path: () => '/licenses/leases', auth: 'any', body: () => ({ licenseKey: w.licenseKey, machineFingerprint: 'fp-table' }) },
    // The id is a lease's (lease_…, anything else 400): not a resource id of the seller's.
    { name: 'POST /licenses/leases/:id/heartbeat', method: 'POST', path: () => `/licenses/leases/${w.leaseId}/heartbeat`, auth: 'any', body: () => ({ licenseKey: w.licenseKey }) },
    { name: 'POST /licenses/leases/:id/release', method: 'POST', path: () => `/licenses/leases/${w.leaseId}/release`, auth: 'any', body: () => ({ licenseKey: w.licenseKey }) },
    { name: 'GET /licenses/:id/leases', method: 'GET', path: (id = license) => `/licenses/${id}/leases`, auth: 'secret', hasIdParam: true },
    { name: 'PUT /licenses/:id/lease-terms', method: 'PUT', path: (id = license) => `/licenses/${id}/lease-terms`, auth: 'secret', body: () => ({ maxLeases: 5, leaseSeconds: null, maxBorrowHours: null }), hasIdParam: true },
    { name: 'POST /licenses/machine-file', method: 'POST', path: () => '/licenses/machine-file', auth: 'any', body: () => ({ licenseKey: w.licenseKey, machineFingerprint: 'fp-table' }) },
    { name: 'POST /licenses/:id/machine-files', method: 'POST', path: (id = license) => `/licenses/${id}/machine-files`, auth: 'secret', body: () => ({ licenseKey: w.licenseKey, machineFingerprint: 'fp-table' }), hasIdParam: true },
    { name: 'GET /licenses/:id/machine-files', method: 'GET', path: (id = license) => `/licenses/${id}/machine-files`, auth: 'secret', hasIdParam: true },
    // A new e-mail and machine each call: one trial per e-mail and per machine.
    { name: 'POST /trials', method: 'POST', path: () => '/trials', auth: 'any', body: () => ({ productId: product, email: `trial${++unique}@example.com`, machineFingerprint: `fp-trial-${unique}`, name: 'trial-host' }) },
    { name: 'POST /trials/confirm', method: 'POST', path: () => '/trials/confirm', auth: 'any', body: () => ({ ...w.trialRequest }) },
    { name: 'GET /licenses/:id/activations', method: 'GET', path: (id = license) => `/licenses/${id}/activations`, auth: 'secret', hasIdParam: true },
    {
      name: 'DELETE /licenses/:id/activations/:activationId', method: 'DELETE', path: (id = license) => `/licenses/${id}/activations/${w.activationId}`, auth: 'secret', hasIdParam: true,
    },
    { name: 'PATCH /licenses/:id', method: 'PATCH', path: (id = license) => `/licenses/${id}`, auth: 'secret', body: () => ({ maxMachines: 2 }), hasIdParam: true },
    // The product's set alone, as granted: the same set, so the key the other routes use stays current.
    { name: 'PUT /licenses/:id/entitlements', method: 'PUT', path: (id = license) => `/licenses/${id}/entitlements`, auth: 'secret', body: () => ({ entitlements: [] }), hasIdParam: true },
    { name: 'POST /licenses/:id/revoke', method: 'POST', path: (id = license) => `/licenses/${id}/revoke`, auth: 'secret', hasIdParam: true },
    { name: 'POST /licenses/:id/resend', method: 'POST', path: (id = license) => `/licenses/${id}/resend`, auth: 'secret', hasIdParam: true },
    { name: 'GET /connect/status', method: 'GET', path: () => '/connect/status', auth: 'secret' },
    { name: 'POST /connect/start', method: 'POST', path: () => '/connect/start', auth: 'secret' },
    // Without code and state: a browser landing here by itself is refused (400).
    { name: 'GET /connect/callback', method: 'GET', path: () => '/connect/callback', auth: 'none' },
    {
      name: 'POST /checkout/init', method: 'POST', path: () => '/checkout/init', auth: 'any',
      body: () => ({ productId: product, email: 'buyer@example.com', successUrl: 'https://app.example.com/thanks', cancelUrl: 'https://app.example.com/cart' }),
    },
    { name: 'GET /checkout/status/:sessionId', method: 'GET', path: (id = session) => `/checkout/status/${id}`, auth: 'none', hasIdParam: true },
    { name: 'GET /checkout/success', method: 'GET', path: () => '/checkout/success', auth: 'none' },
    { name: 'GET /checkout/cancel', method: 'GET', path: () => '/checkout/cancel', auth: 'none' },
    // Its body is Stripe's signed event, not a JSON input of ours: the body loops send it junk only.
    { name: 'POST /webhooks/stripe-events', method: 'POST', path: () => '/webhooks/stripe-events', auth: 'none' },
    // An unknown e-mail answers 200 like a known one, so each call can be fresh and never meets the send limit.
    { name: 'POST /auth/login/init', method: 'POST', path: () => '/auth/login/init', auth: 'none', body: () => ({ email: `visitor${++unique}@example.com` }) },
    {
      name: 'POST /auth/login/verify', method: 'POST', path: () => '/auth/login/verify', auth: 'none',
      body: () => ({ email: customer.email, ...customer.login, deviceFingerprint: customer.device }),
    },
    { name: 'POST /auth/logout', method: 'POST', path: () => '/auth/logout', auth: 'customer' },
    { name: 'POST /purchase/init', method: 'POST', path: () => '/purchase/init', auth: 'customer', body: () => ({ productId: product }) },
    { name: 'POST /purchase/otp', method: 'POST', path: () => '/purchase/otp', auth: 'customer', body: () => ({ purchaseId: customer.purchase.purchaseId }) },
    { name: 'POST /purchase/confirm', method: 'POST', path: () => '/purchase/confirm', auth: 'customer', body: () => ({ ...customer.purchase }) },
    // Each call asks for another new phone, so the per-phone-change send limit is never met.
    { name: 'POST /customer/phone', method: 'POST', path: () => '/customer/phone', auth: 'customer', body: () => ({ phone: `+1555${String(++unique).padStart(7, '0')}` }) },
    { name: 'POST /customer/phone/verify', method: 'POST', path: () => '/customer/phone/verify', auth: 'customer', body: () => ({ ...customer.phoneChange }) },
    { name: 'GET /customer/licenses', method: 'GET', path: () => '/customer/licenses', auth: 'customer' },
    {
      name: 'DELETE /customer/licenses/:id/activations/:activationId', method: 'DELETE', auth: 'customer', hasIdParam: true,
      path: (id = customer.license.id) => `/customer/licenses/${id}/activations/${customer.license.activationId}`,
    },
    {
      name: 'POST /customer/licenses/:id/machine-file', method: 'POST', auth: 'customer', hasIdParam: true,
      path: (id = customer.license.id) => `/customer/licenses/${id}/machine-file`,
      body: () => ({ licenseKey: customer.license.licenseKey, machineFingerprint: customer.device }),
    },
    { name: 'GET /customer/subscriptions', method: 'GET', path: () => '/customer/subscriptions', auth: 'customer' },
    { name: 'POST /customer/subscriptions/:id/cancel', method: 'POST', path: (id = customer.subscriptionId) => `/customer/subscriptions/${id}/cancel`, auth: 'customer', hasIdParam: true },
    { name: 'POST /customer/subscriptions/:id/resume', method: 'POST', path: (id = customer.subscriptionId) => `/customer/subscriptions/${id}/resume`, auth: 'customer', hasIdParam: true },
    { name: 'GET /customer/orders', method: 'GET', path: () => '/customer/orders', auth: 'customer' },
    { name: 'POST /customer/card', method: 'POST', path: () => '/customer/card', auth: 'customer', body: () => ({ subscriptionId: customer.subscriptionId }) },
    {
      name: 'GET /account/receipts/:orderId', method: 'GET', auth: 'none', hasIdParam: true,
      path: (id = w.orderId) => `/account/receipts/${id}?t=${w.api.deps.derivedSecrets.pageLinkMac('receipt', id)}`,
    },
    { name: 'GET /account', method: 'GET', path: () => '/account', auth: 'none' },
    { name: 'GET /sandbox/outbox', method: 'GET', path: () => `/sandbox/outbox${outbox}`, auth: 'none' },
    { name: 'GET /sandbox/outbox/view', method: 'GET', path: () => `/sandbox/outbox/view${outbox}`, auth: 'none' },
    { name: 'POST /sandbox/clock', method: 'POST', path: () => '/sandbox/clock', auth: 'secret', body: () => ({ advanceDays: 1 }) },
  ];
}

/** The outgoing webhook routes (docs/webhooks.md); the endpoint's deletion last, as the others use it. */
function webhookRoutes(w: World): Route[] {
  const hook = (id = w.webhookEndpointId) => `/developers/webhook-endpoints/${id}`;
  const delivery = (id = w.webhookDeliveryId) => `/developers/webhook-deliveries/${id}`;
  return [
    { name: 'POST /developers/webhook-endpoints', method: 'POST', path: () => '/developers/webhook-endpoints', auth: 'secret', body: () => ({ url: `https://hooks.example.com/${++unique}`, events: ['license.created'] }) },
    { name: 'GET /developers/webhook-endpoints', method: 'GET', path: () => '/developers/webhook-endpoints', auth: 'secret' },
    { name: 'GET /developers/webhook-endpoints/:id', method: 'GET', path: (id) => hook(id), auth: 'secret', hasIdParam: true },
    { name: 'PATCH /developers/webhook-endpoints/:id', method: 'PATCH', path: (id) => hook(id), auth: 'secret', body: () => ({ description: 'Production' }), hasIdParam: true },
    { name: 'POST /developers/webhook-endpoints/:id/rotate-secret', method: 'POST', path: (id) => `${hook(id)}/rotate-secret`, auth: 'secret', hasIdParam: true },
    { name: 'POST /developers/webhook-endpoints/:id/test', method: 'POST', path: (id) => `${hook(id)}/test`, auth: 'secret', hasIdParam: true },
    { name: 'GET /developers/webhook-endpoints/:id/deliveries', method: 'GET', path: (id) => `${hook(id)}/deliveries`, auth: 'secret', hasIdParam: true },
    { name: 'GET /developers/webhook-deliveries/:id', method: 'GET', path: (id) => delivery(id), auth: 'secret', hasIdParam: true },
    { name: 'POST /developers/webhook-deliveries/:id/redeliver', method: 'POST', path: (id) => `${delivery(id)}/redeliver`, auth: 'secret', hasIdParam: true },
    { name: 'GET /developers/events', method: 'GET', path: () => '/developers/events', auth: 'secret' },
    { name: 'DELETE /developers/webhook-endpoints/:id', method: 'DELETE', path: (id) => hook(id), auth: 'secret', hasIdParam: true },
  ];
}

export const authenticated = (routes: Route[]) => routes.filter((r) => r.auth !== 'none');

/** The headers of the route's rightful caller: `mine`'s secret key, or the customer's identity token. */
export function ownerHeaders(w: World, route: Route): Record<string, string> {
  if (route.auth === 'none') return {};
  if (route.auth === 'customer') return w.customer.auth;
  return { 'x-api-key': w.mine.apiKey };
}

/** A license key signed with the developer's real private key, over whatever claims the test wants. */
export async function signAsDeveloper(api: TestApi, developerId: string, claims: Partial<LicenseClaims>): Promise<string> {
  const key = await api.deps.signingKeys.active(developerId, api.deps.clock.now());
  if (!key) throw new Error('no active signing key');
  const input = signingInputFor(key.kid, fullClaims(developerId, claims));
  return assembleLicenseKey(input, api.deps.signer.sign(key.sealedPrivateKey, utf8.encode(input)));
}

/** A well-formed key signed by a key pair the service has never seen. */
export function signWithUnknownKey(developerId: string, claims: Partial<LicenseClaims>, kid = 'kid_NotKnownAnywhere000000'): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  const input = signingInputFor(kid, fullClaims(developerId, claims));
  return assembleLicenseKey(input, new Uint8Array(sign(null, utf8.encode(input), privateKey)));
}

function fullClaims(developerId: string, claims: Partial<LicenseClaims>): LicenseClaims {
  return { iss: TEST_ISSUER, sub: developerId, id: 'lic_x', productId: 'prod_x', features: [], issuedAt: 0, expiresAt: null, ...claims };
}

/** The JWS header and claims of a compact key, decoded without verifying. */
export function decodeKey(licenseKey: string): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const [h, p] = licenseKey.split('.') as [string, string];
  const json = (s: string) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
  return { header: json(h), claims: json(p) };
}
