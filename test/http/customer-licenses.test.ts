import { describe, expect, test } from 'bun:test';
import { DEACTIVATION_WINDOW_MS } from '../../src/domain/activation.ts';
import { seller, testApi } from '../support/http.ts';
import { customerAuth } from '../support/sign-in.ts';
import { aCustomer, CUSTOMER, expectError, latestCode, world, type World } from './fixtures.ts';

/** Buyer self-service (docs/activations.md): a logged-in customer's licenses, machines and removals. */

const DAY = 86_400_000;
const bearer = (token: string, device = CUSTOMER.device) => customerAuth(token, device);
const list = (w: World, token = w.customer.token, device = CUSTOMER.device) => w.api.call('GET', '/customer/licenses', { headers: bearer(token, device) });
const remove = (w: World, licenseId: string, activationId: string, token = w.customer.token, device = CUSTOMER.device) =>
  w.api.call('DELETE', `/customer/licenses/${licenseId}/activations/${activationId}`, { headers: bearer(token, device) });
const activate = (w: World, licenseKey: string, machineFingerprint: string) =>
  w.api.call('POST', '/licenses/activate', { key: w.mine.apiKey, body: { licenseKey, machineFingerprint } });
const validate = (w: World, licenseKey: string, machineFingerprint: string) =>
  w.api.call('POST', '/licenses/validate', { key: w.mine.publishableKey, body: { licenseKey, machineFingerprint } });

/** The world's customer's own license (issued by the checkout), as GET /customer/licenses shows it. */
async function ownLicense(w: World) {
  const reply = await list(w);
  return reply.body.data.find((l: { id: string }) => l.id === w.customer.license.id);
}

/** A fresh sign-in of the world's customer with the code texted to them: their new identity token. */
async function signIn(w: World): Promise<string> {
  const init = await w.api.call('POST', '/auth/login/init', { body: { email: CUSTOMER.email } });
  const otp = await latestCode(w.api, CUSTOMER.phone);
  const verified = await w.api.call('POST', '/auth/login/verify', { body: { email: CUSTOMER.email, otpId: init.body.otpId, otp, deviceFingerprint: CUSTOMER.device } });
  return verified.body.identityToken;
}

/** Room for `count` more machines on the customer's license, each activated; returns their ids. */
async function machines(w: World, count: number): Promise<string[]> {
  await w.api.call('PATCH', `/licenses/${w.customer.license.id}`, { key: w.mine.apiKey, body: { maxMachines: count + 1 } });
  const { licenseKey } = await ownLicense(w);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await activate(w, licenseKey, `fp-extra-${i}`)).body.activation.id);
  return ids;
}

describe('GET /customer/licenses', () => {
  test('lists the customer’s licenses as login verify does, each with maxMachines and its machines', async () => {
    const w = await world();
    const reply = await list(w);
    const verified = await w.api.call('POST', '/auth/login/verify', { body: { email: CUSTOMER.email, ...w.customer.login, deviceFingerprint: CUSTOMER.device } });

    expect(reply.status).toBe(200);
    expect(reply.body.data.map(({ maxMachines, activations, sellerName, trial, ...rest }: Record<string, unknown>) => rest)).toEqual(verified.body.licenses);
    expect(await ownLicense(w)).toEqual({
      id: w.customer.license.id, productId: w.mine.product.id, productName: 'Pro', sellerName: 'Seller', trial: false, status: 'active', features: ['pro'], issuedAt: expect.any(Number), expiresAt: null,
      licenseKey: expect.any(String), maxMachines: 1,
      activations: [{ id: w.customer.license.activationId, name: null, machineFingerprint: CUSTOMER.device, createdAt: expect.any(Number), lastSeenAt: expect.any(Number) }],
    });
  });

  test('shows licenses from every seller, and a license on no machine with an empty list', async () => {
    const w = await world();
    const third = await seller(w.api);
    const granted = await w.api.call('POST', '/developers/licenses', { key: third.apiKey, body: { productId: third.product.id, email: CUSTOMER.email } });

    const shown = (await list(w)).body.data.find((l: { id: string }) => l.id === granted.body.license.id);

    expect(shown).toMatchObject({ productId: third.product.id, productName: 'Pro', licenseKey: granted.body.licenseKey, maxMachines: 1, activations: [] });
  });

  test('looks each product up once, however many licenses share it', async () => {
    const w = await world();
    for (let i = 0; i < 3; i++) await w.api.call('POST', '/developers/licenses', { key: w.mine.apiKey, body: { productId: w.mine.product.id, email: CUSTOMER.email } });
    const products = w.api.deps.products;
    const looked: string[] = [];
    const findById = products.findById.bind(products);
    products.findById = (id) => (looked.push(id), findById(id));

    const reply = await list(w);

    expect(reply.body.data.length).toBeGreaterThanOrEqual(4);
    // The customer's monthly subscription (the world's) is the other product: each looked up once.
    expect(looked).toContain(w.mine.product.id);
    expect(looked).toEqual([...new Set(looked)]);
  });

  test('another customer sees only their own licenses', async () => {
    const w = await world();
    const second = await aCustomer(w.api, w.mine.apiKey, w.mine.product.id, { email: 'second.buyer@example.com', phone: '+15551110000', device: 'fp-second' });

    const ids = (await list(w, second.token, second.device)).body.data.map((l: { id: string }) => l.id);

    expect(ids).toContain(second.license.id);
    expect(ids).not.toContain(w.customer.license.id);
  });
});

describe('DELETE /customer/licenses/:id/activations/:activationId', () => {
  test('removes the machine and answers the machines left; the freed slot is taken by a new fingerprint', async () => {
    const w = await world();
    const { licenseKey } = await ownLicense(w);
    expect((await validate(w, licenseKey, 'fp-new')).body).toEqual({ valid: false, reason: 'machine_mismatch' });

    const reply = await remove(w, w.customer.license.id, w.customer.license.activationId);

    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ licenseId: w.customer.license.id, maxMachines: 1, data: [] });
    expect((await validate(w, licenseKey, 'fp-new')).body.valid).toBe(true);
    expect((await ownLicense(w)).activations.map((a: { machineFingerprint: string }) => a.machineFingerprint)).toEqual(['fp-new']);
  });

  test('another customer’s license: 404, and its machine stays', async () => {
    const w = await world();
    const second = await aCustomer(w.api, w.mine.apiKey, w.mine.product.id, { email: 'second.buyer@example.com', phone: '+15551110000', device: 'fp-second' });

    expectError(await remove(w, w.customer.license.id, w.customer.license.activationId, second.token, second.device), 404, 'not_found');
    expectError(await remove(w, second.license.id, w.customer.license.activationId, second.token, second.device), 404, 'not_found');
    expect((await ownLicense(w)).activations).toHaveLength(1);
  });

  test('an unknown activation, or one of another license: 404', async () => {
    const w = await world();
    expectError(await remove(w, w.customer.license.id, 'act_nope'), 404, 'not_found');
    // The world's seller license (another customer's) has an activation: not this license's.
    expectError(await remove(w, w.customer.license.id, w.activationId), 404, 'not_found');
    expectError(await remove(w, 'lic_nope', w.customer.license.activationId), 404, 'not_found');
  });

  test('no token, a forged one, or one logged out: 401, and nothing is removed', async () => {
    const w = await world();
    const path = `/customer/licenses/${w.customer.license.id}/activations/${w.customer.license.activationId}`;
    expectError(await w.api.call('DELETE', path), 401, 'unauthorized');
    expectError(await w.api.call('GET', '/customer/licenses'), 401, 'unauthorized');
    for (const forged of [`idt_${'x'.repeat(43)}`, w.mine.apiKey, `${w.customer.token}x`]) {
      expectError(await remove(w, w.customer.license.id, w.customer.license.activationId, forged), 401, 'unauthorized');
      expectError(await list(w, forged), 401, 'unauthorized');
    }
    expect((await ownLicense(w)).activations).toHaveLength(1);
    await w.api.call('POST', '/auth/logout', { headers: bearer(w.customer.token) });
    expectError(await remove(w, w.customer.license.id, w.customer.license.activationId), 401, 'unauthorized');
    expectError(await list(w), 401, 'unauthorized');
  });

  test('a NUL byte in either id: 400 invalid_request', async () => {
    const w = await world();
    expectError(await remove(w, '%00', w.customer.license.activationId), 400, 'invalid_request');
    expectError(await remove(w, w.customer.license.id, 'act_%00'), 400, 'invalid_request');
  });
});

describe('the holder quota, shared with POST /licenses/deactivate (fixed clock)', () => {
  test('K per rolling 30 days across both routes; past it 429 with Retry-After and the seller named; allowed again when the oldest ages out', async () => {
    const w = await world();
    await w.api.call('PATCH', `/developers/products/${w.mine.product.id}`, { key: w.mine.apiKey, body: { deactivationsPer30Days: 2 } });
    const [a, b] = await machines(w, 2);
    const { licenseKey } = await ownLicense(w);
    const t0 = w.api.clock.now();

    expect((await w.api.call('POST', '/licenses/deactivate', { key: w.mine.publishableKey, body: { licenseKey, machineFingerprint: CUSTOMER.device } })).status).toBe(200);
    w.api.clock.advance(DAY);
    expect((await remove(w, w.customer.license.id, a!)).status).toBe(200);
    w.api.clock.advance(DAY);
    const refused = await remove(w, w.customer.license.id, b!);

    expectError(refused, 429, 'rate_limited');
    expect(refused.headers.get('retry-after')).toBe(String((t0 + DEACTIVATION_WINDOW_MS - w.api.clock.now()) / 1000));
    expect(refused.body.error.message).toContain('seller');
    expect((await ownLicense(w)).activations.map((x: { id: string }) => x.id)).toEqual([b]);

    w.api.clock.advance(t0 + DEACTIVATION_WINDOW_MS - w.api.clock.now());
    // The identity token has lived its 30 days too: the buyer signs in again.
    expect((await remove(w, w.customer.license.id, b!, await signIn(w))).body.data).toEqual([]);
  });

  test('a product with deactivationsPer30Days 0: 403, and the machine stays', async () => {
    const w = await world();
    await w.api.call('PATCH', `/developers/products/${w.mine.product.id}`, { key: w.mine.apiKey, body: { deactivationsPer30Days: 0 } });

    expectError(await remove(w, w.customer.license.id, w.customer.license.activationId), 403, 'forbidden');
    expect((await ownLicense(w)).activations).toHaveLength(1);
  });

  test('removals by the seller are not counted against the customer', async () => {
    const w = await world();
    await w.api.call('PATCH', `/developers/products/${w.mine.product.id}`, { key: w.mine.apiKey, body: { deactivationsPer30Days: 1 } });
    const [a] = await machines(w, 1);
    await w.api.call('DELETE', `/licenses/${w.customer.license.id}/activations/${a}`, { key: w.mine.apiKey });

    expect((await remove(w, w.customer.license.id, w.customer.license.activationId)).status).toBe(200);
  });
});

describe('GET /account (the buyer page)', () => {
  test('is HTML under a strict CSP: one nonce for its one script, fetches to its own origin only, no framing', async () => {
    const api = testApi();
    const reply = await api.call('GET', '/account');
    const csp = reply.headers.get('content-security-policy')!;
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];

    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/html');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(reply.body.match(/<script/g)).toHaveLength(1);
    expect(reply.body).toContain(`<script nonce="${nonce}">`);
    expect(reply.body).not.toMatch(/\son[a-z]+=/i);
    expect((await api.call('GET', '/account')).headers.get('content-security-policy')).not.toContain(nonce!);
  });
});
