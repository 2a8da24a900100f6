import { beforeAll, describe, expect, test } from 'bun:test';
import { axeViolations } from './axe.ts';
import { PHONE as NARROW, screenshot, SLOW, useChromium, watchPage } from './browser.ts';
import { connectInBrowser, payWith } from './flows.ts';
import { initCheckout, newSeller, useSandboxService, type Seller } from './service.ts';

/**
 * The buyer's portal (docs/customers.md) in a real Chromium under its real CSP, at 375 px: sign in,
 * cancel and resume a subscription (Cancel asks first), open a receipt, remove a machine named by
 * its host name after confirming, by keyboard where a buyer would use one.
 */

const chrome = useChromium();
const service = useSandboxService();
let seller: Seller;
let monthlyId: string;

const EMAIL = 'portal.buyer@example.com';

beforeAll(async () => {
  seller = await newSeller(service.call);
  await connectInBrowser(await chrome.page(), service.call, seller);
  const monthly = await service.call('POST', '/developers/products', { key: seller.apiKey, body: { name: 'Pro monthly', price: 900, currency: 'usd', interval: 'month' } });
  monthlyId = monthly.body.id;
}, SLOW);

/** The sign-in code mailed to the address (sandbox mail), once the outbox has sent it. */
async function mailedCode(email: string): Promise<string> {
  for (let tries = 0; tries < 200; tries++) {
    const mail = await service.call('GET', `/sandbox/mail?to=${encodeURIComponent(email)}`);
    const code = mail.body.data.map((m: { text: string }) => /code is (\d{6})/.exec(m.text)?.[1]).find(Boolean);
    if (code) return code;
    await Bun.sleep(50);
  }
  throw new Error(`no code mailed to ${email}`);
}

/** What the API says of the buyer's subscription, through their own token. */
async function stored(subscriptionId: string) {
  const sub = await service.call('GET', `/developers/subscriptions/${subscriptionId}`, { key: seller.apiKey });
  return sub.body as { cancelAtPeriodEnd: boolean };
}

/** The buyer pays the monthly product in the sandbox checkout: the checkout session's id. */
async function subscribe(email: string, phone: string): Promise<string> {
  const { sessionId, checkoutUrl } = await initCheckout(service.call, seller, { productId: monthlyId });
  const checkout = await chrome.page();
  await checkout.goto(checkoutUrl);
  await payWith(checkout, { email, phone });
  await checkout.waitForURL(/\/v1\/checkout\/success/);
  return sessionId;
}

/** The buyer page at 375 px, signed in with the mailed code, watched for CSP reports and errors. */
async function signedIn(email: string) {
  const page = await chrome.page();
  await page.setViewportSize(NARROW);
  const watched = watchPage(page);
  await page.goto(`${service.url}/v1/account`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByRole('textbox', { name: /^Code/ }).fill(await mailedCode(email));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Subscriptions' }).waitFor();
  return { page, watched };
}

describe('the buyer’s portal', () => {
  test('signs in, cancels (after confirming) and resumes, opens a receipt, removes a machine after confirming; axe finds nothing', async () => {
    const sessionId = await subscribe(EMAIL, '+15550100077');
    const status = (await service.call('GET', `/checkout/status/${sessionId}`)).body;
    // check() binds its first machine under the host name: the validation's machineName.
    const bound = await service.call('POST', '/licenses/validate', { key: seller.publishableKey, body: { licenseKey: status.licenseKey, machineFingerprint: 'fp-build-box', machineName: 'build-box' } });
    expect(bound.body.valid).toBe(true);
    const subscriptionId = (await service.call('GET', '/developers/subscriptions', { key: seller.apiKey })).body.data[0].id as string;

    const { page, watched } = await signedIn(EMAIL);
    const portal = await page.textContent('#licenses');
    const signedInAxe = await axeViolations(page);
    await screenshot(page, 'portal-signed-in');

    // Cancel asks first; Escape keeps it.
    await page.getByRole('button', { name: 'Cancel subscription to Pro monthly' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Cancel Pro monthly?' });
    await dialog.waitFor();
    const dialogAxe = await axeViolations(page);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // The page gives the focus back to the button that opened it, in the dialog's close event (a task of its own).
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Cancel subscription to Pro monthly').catch(() => undefined);
    const keptAfterEscape = await stored(subscriptionId);
    const focusAfterEscape = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    // By keyboard: Enter opens it, Tab from "Keep it" to "Cancel subscription", Enter confirms. Each
    // key waits for the focus the last one gave (the page moves it in its own tasks; a busy machine lags).
    const focusIs = (id: string) => page.waitForFunction((which) => document.activeElement?.id === which, id);
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await focusIs('confirm-no');
    await page.keyboard.press('Tab');
    await focusIs('confirm-yes');
    await page.keyboard.press('Enter');
    await page.getByText('Canceled Pro monthly').waitFor();
    const afterCancel = await stored(subscriptionId);
    const canceledText = await page.textContent('#subscription-list');

    await page.getByRole('button', { name: 'Resume subscription to Pro monthly' }).click();
    await page.getByText('Resumed Pro monthly').waitFor();
    const afterResume = await stored(subscriptionId);

    const [receipt] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: /^Receipt of Pro monthly/ }).click()]);
    await receipt.waitForLoadState();
    const receiptText = await receipt.textContent('body');
    const receiptAxe = await axeViolations(receipt);

    await page.getByRole('button', { name: 'Remove build-box' }).click();
    await page.getByRole('dialog', { name: 'Remove build-box?' }).getByRole('button', { name: 'Remove machine' }).click();
    await page.getByText('Removed build-box').waitFor();
    const machines = await service.call('GET', `/licenses/${status.license.id}/activations`, { key: seller.apiKey });
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);

    expect(portal).toContain('build-box');
    expect(portal).not.toContain('Unnamed machine');
    expect(portal).toContain(status.license.id);
    expect(portal).toContain('Seller');
    expect(portal).toMatch(/\$9\.00 per month\. Next charge \d{4}-\d{2}-\d{2}/);
    expect(keptAfterEscape.cancelAtPeriodEnd).toBe(false);
    expect(focusAfterEscape).toBe('Cancel subscription to Pro monthly');
    expect(afterCancel.cancelAtPeriodEnd).toBe(true);
    expect(canceledText).toContain('no further charge');
    expect(afterResume.cancelAtPeriodEnd).toBe(false);
    expect(receiptText).toContain('Receipt');
    expect(receiptText).toContain('$9.00');
    expect(receiptText).toContain(EMAIL);
    expect(machines.body.data).toEqual([]);
    expect(signedInAxe).toEqual([]);
    expect(dialogAxe).toEqual([]);
    expect(receiptAxe).toEqual([]);
    expect(scrollWidth).toBeLessThanOrEqual(NARROW.width);
    expect(watched).toEqual({ csp: [], errors: [] });
  }, SLOW);

  test('Change card opens the sandbox card form, which saves the new card (axe finds nothing there)', async () => {
    const email = 'portal.card@example.com';
    await subscribe(email, '+15550100078');

    const { page, watched } = await signedIn(email);
    await page.getByRole('button', { name: 'Change card for Pro monthly' }).click();
    await page.getByRole('heading', { name: 'Change your card' }).waitFor();
    const formAxe = await axeViolations(page);
    await page.getByLabel(/^Card number/).fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Save card' }).click();
    const declined = await page.getByRole('alert').textContent();
    await page.getByLabel(/^Card number/).fill('5555 5555 5555 4444');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByRole('heading', { name: 'Card changed' }).waitFor();
    const saved = await page.textContent('main');

    expect(formAxe).toEqual([]);
    expect(declined).toContain('declined');
    expect(saved).toContain('mastercard card ending in 4444');
    expect(watched.csp).toEqual([]);
  }, SLOW);

  test('a machine with no network: the request file pasted by keyboard gives a machine file that verifies for that machine, and the machine shows', async () => {
    const email = 'offline.buyer@example.com';
    const sessionId = await subscribe(email, '+15550100079');
    const status = (await service.call('GET', `/checkout/status/${sessionId}`)).body;
    const requestFile = JSON.stringify({ licenseKey: status.licenseKey, machineFingerprint: 'fp-air-gapped', productId: monthlyId }, null, 2);

    const { page, watched } = await signedIn(email);
    const card = page.getByRole('region', { name: 'Pro monthly' });
    await card.getByText('A machine with no network').focus();
    await page.keyboard.press('Enter');
    await card.getByLabel('Request file').fill('{ not json');
    await card.getByRole('button', { name: 'Make machine file' }).click();
    const refused = await page.locator('#error').textContent();
    await card.getByLabel('Request file').fill(requestFile);
    await card.getByRole('button', { name: 'Make machine file' }).click();
    const file = card.getByLabel(/^Machine file, valid until/);
    await file.waitFor();
    const machineFile = await file.inputValue();
    const afterAxe = await axeViolations(page);
    const machinesText = await card.textContent();
    const listed = await service.call('GET', `/licenses/${status.license.id}/machine-files`, { key: seller.apiKey });

    expect(refused).toContain('not a request file');
    expect(machineFile.split('.')).toHaveLength(3);
    expect(listed.body.data).toHaveLength(1);
    expect(machinesText).toContain('Machines: 1 of');
    expect(afterAxe).toEqual([]);
    expect(watched).toEqual({ csp: [], errors: [] });
  }, SLOW);

  test('the pages asked for nothing but 127.0.0.1', () => {
    expect(chrome.blocked).toEqual([]);
  });
});
