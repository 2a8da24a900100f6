import { describe, expect, test } from 'bun:test';
import { CARD_LINK_LIFETIME_MS } from '../../src/app/customers/sandbox-card.ts';
import { customerAuth } from '../support/sign-in.ts';
import { CUSTOMER, expectError, latestCode, world, type World } from './fixtures.ts';

/** The buyer's portal API (docs/customers.md): their subscriptions, cancel and resume, orders and receipts, the card. */

const DAY = 86_400_000;
const tokens = new WeakMap<World, string>();
const auth = (w: World) => customerAuth(tokens.get(w) ?? w.customer.token, CUSTOMER.device);

/** A fresh sign-in of the world's customer (an identity token lasts 30 days, less than a month's period). */
async function signInAgain(w: World): Promise<void> {
  const init = await w.api.call('POST', '/auth/login/init', { body: { email: CUSTOMER.email } });
  const otp = await latestCode(w.api, CUSTOMER.phone);
  const verified = await w.api.call('POST', '/auth/login/verify', { body: { email: CUSTOMER.email, otpId: init.body.otpId, otp, deviceFingerprint: CUSTOMER.device } });
  tokens.set(w, verified.body.identityToken);
}
const subscriptions = (w: World) => w.api.call('GET', '/customer/subscriptions', { headers: auth(w) });
const change = (w: World, action: 'cancel' | 'resume', id = w.customer.subscriptionId) => w.api.call('POST', `/customer/subscriptions/${id}/${action}`, { headers: auth(w) });
const orders = (w: World) => w.api.call('GET', '/customer/orders', { headers: auth(w) });
const card = (w: World, subscriptionId = w.customer.subscriptionId) => w.api.call('POST', '/customer/card', { headers: auth(w), body: { subscriptionId } });
/** A page reached by an absolute link the API gave (apiBaseUrl ends in /v1, as the test app's paths start after it). */
const open = (w: World, url: string, init: { method?: string; form?: Record<string, string> } = {}) => {
  const path = new URL(url).pathname.replace(/^\/v1/, '') + new URL(url).search;
  return init.form
    ? w.api.call(init.method ?? 'POST', path, { rawBody: new URLSearchParams(init.form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    : w.api.call('GET', path);
};

describe('GET /customer/subscriptions', () => {
  test('lists the customer’s own subscriptions with seller, product, next charge and amount, never another buyer’s', async () => {
    const w = await world();
    const stored = (await w.api.deps.subscriptions.findForCustomer((await w.api.deps.customers.findByEmail(CUSTOMER.email))!.id, w.customer.subscriptionId))!;

    const reply = await subscriptions(w);

    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual([{
      id: w.customer.subscriptionId, sellerName: 'Seller', productId: stored.productId, productName: 'Pro monthly', licenseId: stored.licenseId,
      processor: 'sandbox', status: 'active', interval: 'month', currentPeriodEnd: stored.currentPeriodEnd, trialEnd: null, cancelAtPeriodEnd: false,
      nextChargeAt: stored.currentPeriodEnd, amount: 900, currency: 'usd', createdAt: stored.createdAt, canceledAt: null,
    }]);
    expect(reply.body.data.map((s: { id: string }) => s.id)).not.toContain(w.subscriptionId);
  });

  test('without an identity token: 401', async () => {
    const w = await world();
    expectError(await w.api.call('GET', '/customer/subscriptions'), 401, 'unauthorized');
  });
});

describe('POST /customer/subscriptions/:id/cancel and /resume', () => {
  test('cancel sets it to end at its period end (no next charge); resume undoes it; repeats answer as it stands', async () => {
    const w = await world();

    const canceled = await change(w, 'cancel');
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ id: w.customer.subscriptionId, status: 'active', cancelAtPeriodEnd: true, nextChargeAt: null });
    expect(await change(w, 'cancel')).toMatchObject({ status: 200, body: canceled.body });
    expect((await subscriptions(w)).body.data[0]).toMatchObject({ cancelAtPeriodEnd: true });

    const resumed = await change(w, 'resume');
    expect(resumed.body).toMatchObject({ cancelAtPeriodEnd: false, nextChargeAt: resumed.body.currentPeriodEnd });
    expect(await change(w, 'resume')).toMatchObject({ status: 200, body: resumed.body });
  });

  test('at most 10 changes that reach the processor per subscription an hour, then 429 with Retry-After; repeats of the state it is in are not counted', async () => {
    const w = await world();
    for (let i = 0; i < 5; i++) {
      expect((await change(w, 'cancel')).status).toBe(200);
      expect((await change(w, 'cancel')).status).toBe(200); // as it stands: not counted
      expect((await change(w, 'resume')).status).toBe(200);
    }
    const refused = await change(w, 'cancel');
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await subscriptions(w)).body.data[0]).toMatchObject({ cancelAtPeriodEnd: false });
    w.api.clock.advance(3_600_000);
    expect((await change(w, 'cancel')).body).toMatchObject({ cancelAtPeriodEnd: true });
  });

  test('once the period of a canceled subscription is over, resuming it is 409', async () => {
    const w = await world();
    await change(w, 'cancel');

    w.api.clock.advance(32 * DAY);
    await signInAgain(w);
    expectError(await change(w, 'resume'), 409, 'conflict');
  });

  test('a change meeting another in flight is 409 conflict; once that claim is 60 seconds old, the next one goes through', async () => {
    const w = await world();
    const customerId = (await w.api.deps.customers.findByEmail(CUSTOMER.email))!.id;
    const now = w.api.clock.now();
    expect(await w.api.deps.subscriptions.claimBuyerChange(customerId, w.customer.subscriptionId, true, now, now - 1)).not.toBeNull();

    expectError(await change(w, 'cancel'), 409, 'conflict');
    expect((await change(w, 'resume')).body.cancelAtPeriodEnd).toBe(false);

    w.api.clock.advance(60_001);
    expect((await change(w, 'cancel')).body.cancelAtPeriodEnd).toBe(true);
  });

  test('another buyer’s subscription, a forged id: 404; a NUL byte or an over-long id: 400; no token: 401', async () => {
    const w = await world();
    for (const action of ['cancel', 'resume'] as const) {
      expectError(await change(w, action, w.subscriptionId), 404, 'not_found');
      expectError(await change(w, action, 'sub_forged000000000000000'), 404, 'not_found');
      expectError(await change(w, action, 'sub_%00'), 400, 'invalid_request');
      expectError(await change(w, action, 'x'.repeat(101)), 400, 'invalid_request');
      expectError(await w.api.call('POST', `/customer/subscriptions/${w.customer.subscriptionId}/${action}`), 401, 'unauthorized');
    }
    const others = await w.api.deps.subscriptions.findByProcessorId((await w.api.deps.subscriptions.findById(w.mine.id, w.subscriptionId))!.processorSubscriptionId);
    expect(others!.cancelAtPeriodEnd).toBe(false);
  });
});

describe('GET /customer/orders and the sandbox receipt', () => {
  test('lists the customer’s orders with a receipt link that opens the receipt page; a wrong key is 404', async () => {
    const w = await world();

    const reply = await orders(w);

    expect(reply.status).toBe(200);
    const monthly = reply.body.data.find((o: { productName: string }) => o.productName === 'Pro monthly');
    const receiptUrl: string = monthly.receiptUrl;
    expect({ ...monthly }).toMatchObject({ sellerName: 'Seller', amount: 900, currency: 'usd', status: 'paid', amountRefunded: 0, source: 'checkout', receiptUrl: expect.stringContaining('/v1/account/receipts/') });
    expect(reply.body.data.map((o: { id: string }) => o.id)).not.toContain(w.orderId);

    const page = await open(w, receiptUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.body).toContain('$9.00');
    expect(page.body).toContain(monthly.id);
    expect(page.body).toContain(CUSTOMER.email);

    const forged = new URL(receiptUrl);
    forged.searchParams.set('t', 'A'.repeat(43));
    expectError(await open(w, forged.toString()), 404, 'not_found');
    expectError(await w.api.call('GET', `/account/receipts/${w.orderId}?t=${forged.searchParams.get('t')}`), 404, 'not_found');
    expectError(await w.api.call('GET', '/account/receipts/ord_%00?t=x'), 400, 'invalid_request');
  });

  test('a refund shows on the order and its receipt', async () => {
    const w = await world();
    const order = (await orders(w)).body.data.find((o: { productName: string }) => o.productName === 'Pro monthly');
    const refund = await w.api.call('POST', `/developers/orders/${order.id}/refund`, { key: w.mine.apiKey, body: { amount: 300 } });
    expect(refund.status).toBe(200);

    expect((await orders(w)).body.data.find((o: { id: string }) => o.id === order.id)).toMatchObject({ amountRefunded: 300, status: 'paid' });
    expect((await open(w, order.receiptUrl)).body).toContain('$3.00');
  });
});

describe('POST /customer/card (sandbox)', () => {
  test('answers the sandbox card form, which saves the new card with the seller', async () => {
    const w = await world();
    const reply = await card(w);
    expect(reply.status).toBe(200);
    expect(reply.body.processor).toBe('sandbox');
    expect(reply.body.url).toContain(`/v1/account/card/${w.customer.subscriptionId}?`);

    const form = await open(w, reply.body.url);
    expect(form.status).toBe(200);
    expect(form.body).toContain('name="cardNumber"');

    const declined = await open(w, reply.body.url, { form: { cardNumber: '4000 0000 0000 0002' } });
    expect(declined.status).toBe(422);
    expect(declined.body).toContain('declined');

    const saved = await open(w, reply.body.url, { form: { cardNumber: '5555 5555 5555 4444' } });
    expect(saved.status).toBe(200);
    expect(saved.body).toContain('ending in 4444');
    const customerId = (await w.api.deps.customers.findByEmail(CUSTOMER.email))!.id;
    const cards = await w.api.deps.cards.listFor(customerId, w.mine.id);
    expect(cards[0]).toMatchObject({ brand: 'mastercard', last4: '4444', phone: CUSTOMER.phone });
  });

  test('at most 10 card pages per subscription an hour, then 429', async () => {
    const w = await world();
    for (let i = 0; i < 10; i++) expect((await card(w)).status).toBe(200);
    expectError(await card(w), 429, 'rate_limited');
  });

  test('the form’s link: tampered 404, expired 410; another buyer’s subscription 404; a NUL byte 400', async () => {
    const w = await world();
    const url = new URL((await card(w)).body.url);

    const tampered = new URL(url);
    tampered.searchParams.set('c', 'cus_someoneelse');
    expectError(await open(w, tampered.toString()), 404, 'not_found');

    w.api.clock.advance(CARD_LINK_LIFETIME_MS);
    expectError(await open(w, url.toString()), 410, 'otp_expired');

    const nul = new URL(url);
    nul.searchParams.set('c', 'cus_\u0000');
    expectError(await open(w, nul.toString()), 400, 'invalid_request');
    expectError(await w.api.call('GET', `/account/card/sub_%00${url.search}`), 400, 'invalid_request');
    expectError(await open(w, url.toString(), { form: { cardNumber: '4242\u00004242' } }), 400, 'invalid_request');

    expectError(await card(w, w.subscriptionId), 404, 'not_found');
    expectError(await card(w, 'sub_forged'), 404, 'not_found');
    expectError(await w.api.call('POST', '/customer/card', { headers: auth(w), body: { subscriptionId: 'sub_\u0000' } }), 400, 'invalid_request');
  });
});

describe('GET /customer/licenses', () => {
  test('names each license’s seller and says whether it is a trial', async () => {
    const w = await world();
    const reply = await w.api.call('GET', '/customer/licenses', { headers: auth(w) });
    expect(reply.body.data.length).toBeGreaterThanOrEqual(2);
    for (const license of reply.body.data) expect(license).toMatchObject({ sellerName: 'Seller', trial: false, id: expect.stringMatching(/^lic_/), issuedAt: expect.any(Number) });
  });
});

describe('POST /licenses/validate with machineName', () => {
  test('the validation that binds the machine names it; the buyer sees the name; a control character is 400', async () => {
    const w = await world();
    await w.api.call('PATCH', `/licenses/${w.license.id}`, { key: w.mine.apiKey, body: { maxMachines: 3 } });
    const validate = (machineName: string, machineFingerprint = 'fp-named') =>
      w.api.call('POST', '/licenses/validate', { key: w.mine.publishableKey, body: { licenseKey: w.licenseKey, machineFingerprint, machineName } });

    expect((await validate('ada-desktop')).body.valid).toBe(true);
    expect((await validate('renamed-later')).body.valid).toBe(true);
    expectError(await validate('bad\u0007name', 'fp-other'), 400, 'invalid_request');

    const machines = (await w.api.call('GET', `/licenses/${w.license.id}/activations`, { key: w.mine.apiKey })).body.data;
    expect(machines.find((m: { machineFingerprint: string }) => m.machineFingerprint === 'fp-named').name).toBe('ada-desktop');
    expect(machines.map((m: { machineFingerprint: string }) => m.machineFingerprint)).not.toContain('fp-other');
  });
});
