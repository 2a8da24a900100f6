import { beforeAll, describe, expect, test } from 'bun:test';
import { axeViolations } from './axe.ts';
import { PHONE, screenshot, SLOW, useChromium } from './browser.ts';
import { connectInBrowser, payWith } from './flows.ts';
import { initCheckout, newSeller, useSandboxService, type Seller } from './service.ts';

/** The pages a buyer meets (issue 10), in a real Chromium under the pages' real CSP. */

const chrome = useChromium();
const service = useSandboxService();
let seller: Seller;

beforeAll(async () => {
  seller = await newSeller(service.call);
  await connectInBrowser(await chrome.page(), service.call, seller);
}, SLOW);

describe('the default success page after paying', () => {
  test('shows the license key, and its copy button puts the key on the clipboard', async () => {
    const { sessionId, checkoutUrl } = await initCheckout(service.call, seller);
    const page = await chrome.page();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
    const csp: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) csp.push(message.text());
    });

    await page.goto(checkoutUrl);
    const checkoutText = await page.textContent('main');
    await payWith(page, { email: 'copy@example.com' });
    await page.waitForURL(`${service.url}/v1/checkout/success?session_id=${sessionId}`);
    const status = await service.call('GET', `/checkout/status/${sessionId}`);
    const shownKey = await page.getByLabel('Your license key').inputValue();
    await page.getByRole('button', { name: 'Copy license key' }).click();
    // The label turns once the clipboard write (asynchronous) has finished: wait for it, do not sample it.
    await page.getByRole('button', { name: 'Copied' }).waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'checkout-success-license-key');
    const clipboard = await page.evaluate(() => navigator.clipboard.readText());

    expect(checkoutText).toContain('You are buying from Seller');
    expect(checkoutText).toContain('Perpetual license: it never expires');
    expect(checkoutText).toContain('Includes: pro');
    expect(shownKey).toBe(status.body.licenseKey);
    expect(clipboard).toBe(status.body.licenseKey);
    expect(await page.textContent('main')).toContain('How to activate it');
    expect(csp).toEqual([]);
  }, SLOW);

  test('on a 375 px phone: no sideways scroll, no axe violation, and the keyboard reaches Copy and copies the key', async () => {
    const { sessionId, checkoutUrl } = await initCheckout(service.call, seller);
    const page = await chrome.page(PHONE);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });

    await page.goto(checkoutUrl);
    await payWith(page, { email: 'phone@example.com' });
    await page.waitForURL(`${service.url}/v1/checkout/success?session_id=${sessionId}`);
    await screenshot(page, 'checkout-success-phone');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const violations = await axeViolations(page);
    let focused = '';
    for (let tabs = 0; tabs < 10 && focused !== 'Copy license key'; tabs++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.textContent?.trim() ?? '');
    }
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Copied' }).waitFor({ state: 'visible', timeout: 15_000 });

    expect(overflow).toBe(0);
    expect(violations).toEqual([]);
    expect(focused).toBe('Copy license key');
    expect(await page.textContent('main')).toContain('then paste the key when it asks');
  }, SLOW);

  test('an unknown checkout link shows a page, not JSON', async () => {
    const page = await chrome.page();
    const response = await page.goto(`${service.url}/v1/sandbox/checkout/cs_doesNotExist`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Checkout not found');
  }, SLOW);

  test('the pages asked for nothing but 127.0.0.1', () => {
    expect(chrome.blocked).toEqual([]);
  });
});
