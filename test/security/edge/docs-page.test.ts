import { describe, expect, test } from 'bun:test';
import { screenshot, SLOW, useChromium } from '../../browser/browser.ts';
import { newSeller, useSandboxService } from '../../browser/service.ts';
import { testApi } from '../../support/http.ts';

/**
 * /docs renders under a strict Content-Security-Policy (its own assets only, never framed), and a
 * secret key pasted into Authorize is not kept in the browser's localStorage.
 */

const chrome = useChromium();
const service = useSandboxService();

describe('the docs page headers', () => {
  test('a CSP that allows only the service itself and forbids framing, nosniff, no-store', async () => {
    const reply = await testApi().call('GET', '/docs');
    const csp = reply.headers.get('content-security-policy') ?? '';

    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    expect(reply.headers.get('cache-control')).toBe('no-store');
  });

  test('Swagger UI is told not to persist authorization', async () => {
    const init = await testApi().call('GET', '/docs/assets/init.js');

    expect(init.body).toContain('persistAuthorization: false');
    expect(init.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('the docs page in Chromium', () => {
  test('renders the reference with no CSP violation, and a pasted sk_ key is not stored in localStorage', async () => {
    const seller = await newSeller(service.call);
    const page = await chrome.page();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });

    await page.goto(`${service.url}/v1/docs`);
    await page.getByText('Licensing and Checkout API').first().waitFor();
    await page.locator('.opblock').first().waitFor();
    await page.getByRole('button', { name: /Authorize/ }).first().click();
    await page.locator('.modal-ux input[type=text], .modal-ux input[type=password]').first().fill(seller.apiKey);
    await page.locator('.modal-ux button.authorize').first().click();
    await page.locator('.modal-ux button', { hasText: 'Logout' }).first().waitFor();
    await screenshot(page, 'docs-authorized');
    const stored = await page.evaluate(() => Object.entries(localStorage).map(([k, v]) => `${k}=${v}`).join('\n'));

    expect(violations).toEqual([]);
    expect(await page.locator('.opblock').count()).toBeGreaterThan(10);
    expect(stored).not.toContain(seller.apiKey);
    expect(stored).not.toContain('sk_');
  }, SLOW);

  test('the page asked for nothing but 127.0.0.1', () => {
    expect(chrome.blocked).toEqual([]);
  });
});
