import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { SANDBOX_CODE } from '../checkout/shop.ts';
import { E2E_STORES } from '../e2e/stores.ts';
import { client, type Call } from '../e2e/support.ts';
import { startServer, type RunningServer } from '../support/server-process.ts';

/**
 * A subscription's whole life through the real process in sandbox mode: a seller sells a monthly
 * product, a buyer pays it with the sandbox Pay button, the seller's sandbox billing clock moves past
 * the period, and the buyer's application, validating its old key, is handed the renewed one.
 */
describe.each(E2E_STORES)('a sandbox subscription through the real process on $name', (setup) => {
  const data = setup.open();
  let server: RunningServer;
  let call: Call;

  beforeAll(async () => {
    server = await startServer(data.env, { inheritEnv: false });
    call = client(server.url);
  });

  afterAll(async () => {
    if (server?.proc.exitCode === null) await server.stop();
    await data.dispose();
  });

  /** Signup, a monthly product, and the sandbox's Connect flow. */
  async function monthlySeller() {
    const signup = await call('POST', '/developers/signup', { body: { email: `seller-${crypto.randomUUID()}@example.com`, name: 'Subscription Seller' } });
    const { apiKey, publishableKey } = signup.body;
    const product = await call('POST', '/developers/products', { key: apiKey, body: { name: 'Pro monthly', price: 900, currency: 'usd', features: ['pro'], interval: 'month' } });
    const start = await call('POST', '/connect/start', { key: apiKey });
    const state = new URL(start.body.url).searchParams.get('state')!;
    const connected = await call('GET', `/connect/callback?${new URLSearchParams({ code: SANDBOX_CODE, state })}`);
    expect([signup.status, product.status, connected.status]).toEqual([201, 201, 200]);
    return { apiKey: apiKey as string, publishableKey: publishableKey as string, productId: product.body.id as string };
  }

  /** Checkout, then Pay on the sandbox's checkout page, as a browser posts its form. */
  async function buy(seller: { apiKey: string; productId: string }, email: string) {
    const init = await call('POST', '/checkout/init', { key: seller.apiKey, body: { productId: seller.productId, email } });
    expect(init.status).toBe(201);
    const form = new URLSearchParams({ email, phone: '+15550100000', cardNumber: '4242 4242 4242 4242' });
    const pay = await fetch(`${server.url}/v1/sandbox/checkout/${init.body.sessionId}/pay`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form, redirect: 'manual',
    });
    expect(pay.status).toBe(303);
    const status = await call('GET', `/checkout/status/${init.body.sessionId}`);
    expect(status.body.status).toBe('complete');
    return { licenseKey: status.body.licenseKey as string, license: status.body.license as { id: string; expiresAt: number } };
  }

  test('pay, move the billing clock past the period: the subscription renews and the old key hands over the new one', async () => {
    const seller = await monthlySeller();
    const bought = await buy(seller, 'subscriber@example.com');
    const listed = await call('GET', '/developers/subscriptions', { key: seller.apiKey });
    expect(listed.body.data).toEqual([expect.objectContaining({ licenseId: bought.license.id, customerEmail: 'subscriber@example.com', status: 'active', cancelAtPeriodEnd: false })]);
    const firstEnd = listed.body.data[0].currentPeriodEnd as number;

    const clock = await call('POST', '/sandbox/clock', { key: seller.apiKey, body: { advanceDays: 32 } });

    expect(clock.body.billed).toEqual([{ subscriptionId: listed.body.data[0].id, outcome: 'renewed', periods: 1 }]);
    const after = await call('GET', `/developers/subscriptions/${listed.body.data[0].id}`, { key: seller.apiKey });
    expect(after.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    expect(after.body.currentPeriodEnd).toBeGreaterThan(firstEnd);
    const validation = await call('POST', '/licenses/validate', { key: seller.publishableKey, body: { licenseKey: bought.licenseKey, machineFingerprint: 'a'.repeat(64) } });
    expect(validation.body).toMatchObject({ valid: true, license: { id: bought.license.id } });
    expect(validation.body.license.expiresAt).toBeGreaterThan(bought.license.expiresAt);
    const freshKey = validation.body.license.licenseKey as string;
    expect(freshKey).not.toBe(bought.licenseKey);
    const withFreshKey = await call('POST', '/licenses/validate', { key: seller.publishableKey, body: { licenseKey: freshKey, machineFingerprint: 'a'.repeat(64) } });
    expect(withFreshKey.body).toMatchObject({ valid: true, license: { id: bought.license.id, expiresAt: validation.body.license.expiresAt } });
  });

  test('the seller cancels it: it is not billed again and ends when the clock reaches its period end', async () => {
    const seller = await monthlySeller();
    const bought = await buy(seller, 'leaver@example.com');
    const [subscription] = (await call('GET', '/developers/subscriptions', { key: seller.apiKey })).body.data;

    const cancel = await call('POST', `/developers/subscriptions/${subscription.id}/cancel`, { key: seller.apiKey });

    expect(cancel.body).toMatchObject({ id: subscription.id, status: 'active', cancelAtPeriodEnd: true });
    const clock = await call('POST', '/sandbox/clock', { key: seller.apiKey, body: { advanceDays: 40 } });
    expect(clock.body.billed).toEqual([{ subscriptionId: subscription.id, outcome: 'canceled', periods: 0 }]);
    const ended = await call('GET', `/developers/subscriptions?status=canceled`, { key: seller.apiKey });
    expect(ended.body.data).toEqual([expect.objectContaining({ id: subscription.id, canceledAt: subscription.currentPeriodEnd })]);
    const validation = await call('POST', '/licenses/validate', { key: seller.publishableKey, body: { licenseKey: bought.licenseKey, machineFingerprint: 'b'.repeat(64) } });
    expect(validation.body).toMatchObject({ valid: true, license: { expiresAt: bought.license.expiresAt } });
  });
});
