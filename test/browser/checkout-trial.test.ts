import { beforeAll, describe, expect, test } from 'bun:test';
import { offerDay } from '../../src/domain/checkout-offer.ts';
import { periodEndAfter } from '../../src/domain/subscription.ts';
import { axeViolations } from './axe.ts';
import { PHONE, screenshot, SLOW, useChromium, watchPage } from './browser.ts';
import { connectInBrowser, payWith } from './flows.ts';
import { initCheckout, newSeller, useSandboxService, type Seller } from './service.ts';

/** The sandbox payment page of a monthly product with a trial (issue 21), in a real Chromium. */

const DAY = 86_400_000;
const chrome = useChromium();
const service = useSandboxService();
let seller: Seller;

beforeAll(async () => {
  seller = await newSeller(service.call);
  const monthly = await service.call('POST', '/developers/products', {
    key: seller.apiKey,
    body: { name: 'Pro Monthly', price: 900, currency: 'usd', interval: 'month', trialDays: 14 },
  });
  if (monthly.status !== 201) throw new Error(JSON.stringify(monthly.body));
  seller = { ...seller, productId: monthly.body.id };
  await connectInBrowser(await chrome.page(), service.call, seller);
}, SLOW);

describe('the checkout page of a monthly product with a 14-day trial', () => {
  test('shows the price per month, the trial’s length and end, the first charge and renewal dates, and the seller; passes axe; Pay starts the trial and says nothing was charged', async () => {
    const { sessionId, checkoutUrl } = await initCheckout(service.call, seller);
    const page = await chrome.page();
    await page.setViewportSize(PHONE);
    const watched = watchPage(page);

    const before = Date.now();
    await page.goto(checkoutUrl);
    const after = Date.now();
    await screenshot(page, 'checkout-trial-page');
    const axe = await axeViolations(page);
    const text = (await page.textContent('main')) ?? '';
    const terms = await page.getByRole('listitem').allTextContents();

    // The page was made between `before` and `after`: its dates are one of theirs (a day may turn between).
    const dates = (t: number) => ({ trialEnd: offerDay(t + 14 * DAY), renewal: offerDay(periodEndAfter(t + 14 * DAY, 'month')) });
    const shownFor = [dates(before), dates(after)].find((d) => text.includes(`until ${d.trialEnd}`));
    expect(shownFor).toBeDefined();
    expect(await page.locator('.price').textContent()).toBe('$9.00 / month');
    expect(text).toContain('You are buying from Seller');
    expect(terms).toContain(`Free trial: 14 days, until ${shownFor!.trialEnd}. Nothing is charged today.`);
    expect(terms).toContain(`First charge: $9.00 on ${shownFor!.trialEnd}, when the trial ends; then $9.00 every month, next on ${shownFor!.renewal}.`);
    expect(terms).toContain(`Cancel before ${shownFor!.trialEnd} and nothing is charged: the license ends with the trial.`);
    expect(text).not.toContain('Perpetual');
    expect(await page.title()).toBe('Pay $9.00 / month for Pro Monthly');
    expect(axe).toEqual([]);

    expect(await page.getByRole('button', { name: 'Pay', exact: true }).count()).toBe(0);
    await payWith(page, { email: 'trial-buyer@example.com' }, 'Start free trial');
    await page.waitForURL(`${service.url}/v1/checkout/success?session_id=${sessionId}`);
    const paidBy = Date.now();
    await screenshot(page, 'checkout-trial-started');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Free trial started');
    expect(await page.textContent('main')).toContain('Nothing was charged.');
    expect(await axeViolations(page)).toEqual([]);
    const status = await service.call('GET', `/checkout/status/${sessionId}`);
    // Nothing charged: the license is the trial's, ending 14 days after Pay (no grace days added).
    expect(status.body.license.expiresAt).toBeGreaterThanOrEqual(before + 14 * DAY);
    expect(status.body.license.expiresAt).toBeLessThanOrEqual(paidBy + 14 * DAY);
    expect(watched.csp).toEqual([]);
  }, SLOW);

  test('the pages asked for nothing but 127.0.0.1', () => {
    expect(chrome.blocked).toEqual([]);
  });
});
