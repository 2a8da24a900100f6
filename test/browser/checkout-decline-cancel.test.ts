import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { screenshot, SLOW, useChromium } from './browser.ts';
import { connectInBrowser, payWith } from './flows.ts';
import { initCheckout, newSeller, useSandboxService, type Seller } from './service.ts';

const chrome = useChromium();
const service = useSandboxService();
let seller: Seller;
/** The seller's own application: where custom successUrl and cancelUrl point. */
const sellerApp = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: (request) => new Response(`<!doctype html><title>Seller app</title><h1>Seller app ${new URL(request.url).pathname}</h1>`, { headers: { 'content-type': 'text/html' } }),
});
const appUrl = `http://127.0.0.1:${sellerApp.port}`;

beforeAll(async () => {
  seller = await newSeller(service.call);
  await connectInBrowser(await chrome.page(), service.call, seller);
}, SLOW);
afterAll(() => sellerApp.stop(true));

const statusOf = async (sessionId: string) => (await service.call('GET', `/checkout/status/${sessionId}`)).body;

describe('the sandbox checkout page', () => {
  test('with the decline card shows the error, keeps what was typed, and the session stays pending', async () => {
    const { sessionId, checkoutUrl } = await initCheckout(service.call, seller);
    const page = await chrome.page();
    await page.goto(checkoutUrl);

    await payWith(page, { email: 'buyer@example.com', phone: '+44 20 7946 0958', cardNumber: '4000 0000 0000 0002' });
    await page.getByRole('alert').waitFor();
    await screenshot(page, 'checkout-declined');

    await expect(page.getByRole('alert').textContent()).resolves.toContain('Your card was declined');
    await expect(page.getByLabel('Phone').inputValue()).resolves.toBe('+44 20 7946 0958');
    await expect(page.getByLabel('Card number').getAttribute('aria-invalid')).resolves.toBe('true');
    expect(await statusOf(sessionId)).toEqual({ status: 'pending' });
  }, SLOW);

  test('Cancel ends on the default cancel page and ends the session (its status says expired)', async () => {
    const { sessionId, checkoutUrl } = await initCheckout(service.call, seller);
    const page = await chrome.page();
    await page.goto(checkoutUrl);

    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(`${service.url}/v1/checkout/cancel?session_id=${sessionId}`);
    await screenshot(page, 'checkout-cancel');

    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Payment cancelled');
    expect(await page.textContent('main')).toContain('Return to the application to try again');
    expect(await statusOf(sessionId)).toEqual({ status: 'expired' });
  }, SLOW);

  test('Pay lands on a custom successUrl', async () => {
    const { sessionId, checkoutUrl } = await initCheckout(service.call, seller, { successUrl: `${appUrl}/paid?order=7`, cancelUrl: `${appUrl}/back` });
    const page = await chrome.page();
    await page.goto(checkoutUrl);

    await payWith(page, { email: 'buyer@example.com' });
    await page.waitForURL(`${appUrl}/paid?order=7`);

    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Seller app /paid');
    expect((await statusOf(sessionId)).status).toBe('complete');
  }, SLOW);

  test('Cancel lands on a custom cancelUrl and ends the session', async () => {
    const { sessionId, checkoutUrl } = await initCheckout(service.call, seller, { successUrl: `${appUrl}/paid`, cancelUrl: `${appUrl}/back` });
    const page = await chrome.page();
    await page.goto(checkoutUrl);

    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(`${appUrl}/back`);

    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Seller app /back');
    expect(await statusOf(sessionId)).toEqual({ status: 'expired' });
  }, SLOW);

  test('the pages asked for nothing but 127.0.0.1', () => {
    expect(chrome.blocked).toEqual([]);
  });
});
