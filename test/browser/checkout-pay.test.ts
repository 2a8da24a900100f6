import { beforeAll, describe, expect, test } from 'bun:test';
import { axeViolations } from './axe.ts';
import { PHONE, screenshot, SLOW, useChromium } from './browser.ts';
import { connectInBrowser, payWith } from './flows.ts';
import { initCheckout, newSeller, useSandboxService, type Seller } from './service.ts';

const chrome = useChromium();
const service = useSandboxService();
let seller: Seller;

beforeAll(async () => {
  seller = await newSeller(service.call);
  await connectInBrowser(await chrome.page(), service.call, seller);
}, SLOW);

describe('paying on the sandbox checkout page', () => {
  test('shows the product and its price, then Pay ends on the default success page with a license that validates', async () => {
    const { sessionId, checkoutUrl } = await initCheckout(service.call, seller);
    const page = await chrome.page();

    await page.goto(checkoutUrl);
    await screenshot(page, 'checkout-page');
    const checkoutAxe = await axeViolations(page);
    const shown = { product: await page.getByRole('heading', { level: 1 }).textContent(), body: await page.textContent('main') };
    await payWith(page, { email: 'buyer@example.com' });
    await page.waitForURL(`${service.url}/v1/checkout/success?session_id=${sessionId}`);
    await screenshot(page, 'checkout-success');
    const successAxe = await axeViolations(page);

    expect(shown.product).toBe('Pro Plan');
    expect(checkoutAxe).toEqual([]);
    expect(successAxe).toEqual([]);
    expect(shown.body).toContain('$19.99');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Payment complete');
    expect(await page.textContent('main')).toContain('Return to the application');
    const status = await service.call('GET', `/checkout/status/${sessionId}`);
    expect(status.body.status).toBe('complete');
    const validation = await service.call('POST', '/licenses/validate', {
      key: seller.publishableKey,
      body: { licenseKey: status.body.licenseKey, machineFingerprint: 'browser-test-machine' },
    });
    expect(validation.body.valid).toBe(true);
  }, SLOW);

  test('the e-mail given at checkout init is pre-filled, the test card too, and the page fits a phone', async () => {
    const { checkoutUrl } = await initCheckout(service.call, seller, { email: 'ada@example.com' });
    const page = await chrome.page(PHONE);

    await page.goto(checkoutUrl);
    await screenshot(page, 'checkout-page-phone');

    await expect(page.getByLabel('E-mail').inputValue()).resolves.toBe('ada@example.com');
    await expect(page.getByLabel('Card number').inputValue()).resolves.toBe('4242 4242 4242 4242');
    await expect(page.getByLabel('Phone').inputValue()).resolves.toBe('');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
  }, SLOW);

  test('the keyboard reaches Pay after the three inputs, and its focus is visibly outlined', async () => {
    const { checkoutUrl } = await initCheckout(service.call, seller, { email: 'ada@example.com' });
    const page = await chrome.page();
    await page.goto(checkoutUrl);

    for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
    await screenshot(page, 'checkout-focus-on-pay');

    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      const style = getComputedStyle(element);
      return { text: element.textContent, outline: `${style.outlineStyle} ${style.outlineWidth}` };
    });
    expect(focused).toEqual({ text: 'Pay', outline: 'solid 3px' });
  }, SLOW);

  test('a checkout page opened again after paying says it is already paid', async () => {
    const { checkoutUrl } = await initCheckout(service.call, seller, { email: 'grace@example.com' });
    const page = await chrome.page();
    await page.goto(checkoutUrl);
    await payWith(page);
    await page.waitForURL(/\/v1\/checkout\/success\?session_id=cs_/);

    await page.goto(checkoutUrl);
    await screenshot(page, 'checkout-already-paid');

    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Already paid');
    await expect(page.getByRole('button', { name: 'Pay', exact: true }).count()).resolves.toBe(0);
  }, SLOW);

  test('the pages asked for nothing but 127.0.0.1', () => {
    expect(chrome.blocked).toEqual([]);
  });
});
