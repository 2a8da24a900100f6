import { describe, expect, test } from 'bun:test';
import { screenshot, SLOW, useChromium } from './browser.ts';
import { newSeller, useSandboxService } from './service.ts';

const chrome = useChromium();
const service = useSandboxService();

describe('connecting a payment account in sandbox mode', () => {
  test('Authorize on the sandbox page lands on the connected page and the seller is connected', async () => {
    const seller = await newSeller(service.call);
    const start = await service.call('POST', '/connect/start', { key: seller.apiKey });
    const page = await chrome.page();

    await page.goto(start.body.url);
    await screenshot(page, 'connect-authorize');
    await page.getByRole('link', { name: 'Authorize' }).click();
    await page.waitForURL(/\/v1\/connect\/callback\?/);
    await screenshot(page, 'connect-connected');

    expect(start.body.url).toStartWith(`${service.url}/v1/sandbox/connect/authorize?`);
    expect(new URL(page.url()).searchParams.get('code')).toStartWith('sbx_code_');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Connected');
    const status = await service.call('GET', '/connect/status', { key: seller.apiKey });
    expect(status.body).toEqual({ connected: true, accountId: expect.stringMatching(/^acct_sandbox_/) });
  }, SLOW);

  test('Cancel on the sandbox page returns access_denied and leaves the seller unconnected', async () => {
    const seller = await newSeller(service.call);
    const start = await service.call('POST', '/connect/start', { key: seller.apiKey });
    const page = await chrome.page();

    await page.goto(start.body.url);
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(/\/v1\/connect\/callback\?/);

    expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
    const status = await service.call('GET', '/connect/status', { key: seller.apiKey });
    expect(status.body).toEqual({ connected: false });
  }, SLOW);

  test('the pages asked for nothing but 127.0.0.1', () => {
    expect(chrome.blocked).toEqual([]);
  });
});
