import { describe, expect, test } from 'bun:test';
import { axeViolations } from './axe.ts';
import { PHONE as NARROW, screenshot, SLOW, useChromium, watchPage } from './browser.ts';
import { newSeller, useSandboxService } from './service.ts';

/**
 * The sandbox's kept-message pages (mail and SMS outbox), one page builder since issue 31: asked for
 * without an address they show the lookup form; filled in by keyboard alone they show the messages,
 * at 375 px with no sideways scroll, under their CSP, with no axe-core violation.
 */

const chrome = useChromium();
const service = useSandboxService();

async function lookUpByKeyboard(path: string, value: string) {
  const page = await chrome.page(NARROW);
  const watched = watchPage(page);
  await page.goto(`${service.url}/v1${path}`);
  const emptyAxe = await axeViolations(page);
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement?.id);
  await page.keyboard.type(value);
  await Promise.all([page.waitForURL(/\?to=/), page.keyboard.press('Enter')]);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  return { page, watched, emptyAxe, focused, scrollWidth, filledAxe: await axeViolations(page) };
}

describe('the sandbox mail and outbox pages', () => {
  test('mail: the lookup form by keyboard shows the buyer’s receipt, 375 px wide, no axe violation', async () => {
    const seller = await newSeller(service.call);
    const buyer = `buyer-${crypto.randomUUID()}@example.com`;
    const granted = await service.call('POST', '/developers/licenses', { key: seller.apiKey, body: { productId: seller.productId, email: buyer } });
    expect(granted.status).toBe(201);
    for (let i = 0; i < 50 && (await service.call('GET', `/sandbox/mail?to=${encodeURIComponent(buyer)}`)).body.data.length === 0; i++) await Bun.sleep(100);

    const seen = await lookUpByKeyboard('/sandbox/mail/view', buyer);
    await screenshot(seen.page, 'sandbox-mail-375');

    expect(seen.focused).toBe('to');
    expect(await seen.page.locator('main').innerText()).toContain(granted.body.licenseKey);
    expect(seen.scrollWidth).toBeLessThanOrEqual(NARROW.width);
    expect(seen.emptyAxe).toEqual([]);
    expect(seen.filledAxe).toEqual([]);
    expect(seen.watched).toEqual({ csp: [], errors: [] });
  }, SLOW);

  test('outbox: the lookup form by keyboard shows the phone’s (empty) outbox, 375 px wide, no axe violation', async () => {
    const seen = await lookUpByKeyboard('/sandbox/outbox/view', '+15550001234');
    await screenshot(seen.page, 'sandbox-outbox-375');

    expect(seen.focused).toBe('to');
    expect(new URL(seen.page.url()).searchParams.get('to')).toBe('+15550001234');
    expect(seen.scrollWidth).toBeLessThanOrEqual(NARROW.width);
    expect(seen.emptyAxe).toEqual([]);
    expect(seen.filledAxe).toEqual([]);
    expect(seen.watched).toEqual({ csp: [], errors: [] });
  }, SLOW);
});
