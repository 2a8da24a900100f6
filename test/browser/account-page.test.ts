import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { axeViolations } from './axe.ts';
import { PHONE as NARROW, screenshot, SLOW, useChromium } from './browser.ts';
import { connectInBrowser, payWith } from './flows.ts';
import { initCheckout, newSeller, useSandboxService, type Seller } from './service.ts';

/** The buyer page (docs/activations.md, "Buyer self-service") in a real Chromium under its real CSP. */

const chrome = useChromium();
const service = useSandboxService();
let seller: Seller;

const PHONE = '+15550100042';
const EMAIL = 'page.buyer@example.com';

beforeAll(async () => {
  seller = await newSeller(service.call);
  await connectInBrowser(await chrome.page(), service.call, seller);
}, SLOW);

/** A buyer who paid in the sandbox checkout (their card saved with the checkout's phone): their license key. */
async function buyerWithLicense(email = EMAIL): Promise<string> {
  const { sessionId, checkoutUrl } = await initCheckout(service.call, seller);
  const page = await chrome.page();
  await page.goto(checkoutUrl);
  await payWith(page, { email, phone: PHONE });
  await page.waitForURL(/\/v1\/checkout\/success/);
  const status = await service.call('GET', `/checkout/status/${sessionId}`);
  return status.body.licenseKey;
}

/** The newest code texted to the phone (sandbox SMS outbox). */
async function textedCode(): Promise<string> {
  const outbox = await service.call('GET', `/sandbox/outbox?to=${encodeURIComponent(PHONE)}`);
  return /\b(\d{6})\b/.exec(outbox.body.data[0].body)![1]!;
}

/** The newest code mailed to the address (sandbox mail). */
async function mailedCode(email = EMAIL): Promise<string> {
  const mail = await service.call('GET', `/sandbox/mail?to=${encodeURIComponent(email)}`);
  // The newest mail carrying a code (receipts are mailed too).
  return mail.body.data.map((m: { text: string }) => /code is (\d{6})/.exec(m.text)?.[1]).find(Boolean)!;
}

/** Collects the console's CSP reports: the page must run without one. */
function cspViolations(page: Page): string[] {
  const reports: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) reports.push(message.text());
  });
  return reports;
}

const validate = (licenseKey: string, machineFingerprint: string) =>
  service.call('POST', '/licenses/validate', { key: seller.publishableKey, body: { licenseKey, machineFingerprint } });

describe('the buyer page', () => {
  test('sign in with the e-mailed code, see the license and machine A, remove it (a new machine B then takes the slot), add a phone', async () => {
    const licenseKey = await buyerWithLicense();
    const activated = await service.call('POST', '/licenses/activate', { key: seller.publishableKey, body: { licenseKey, machineFingerprint: 'fp-machine-a', name: 'machine-a' } });
    expect(activated.status).toBe(201);
    expect((await validate(licenseKey, 'fp-machine-b')).body).toEqual({ valid: false, reason: 'machine_mismatch' });
    const page = await chrome.page();
    const csp = cspViolations(page);

    await page.goto(`${service.url}/v1/account`);
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByRole('textbox', { name: /^Code/ }).waitFor();
    await page.getByRole('textbox', { name: /^Code/ }).fill('000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const wrongCode = await page.getByRole('alert').textContent();
    await page.getByRole('textbox', { name: /^Code/ }).fill(await mailedCode());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Pro Plan' }).waitFor();
    const shownKey = await page.getByLabel('License key').inputValue();
    const before = await page.textContent('#licenses');
    await screenshot(page, 'account-licenses');
    await page.getByRole('button', { name: 'Remove machine-a' }).click();
    await page.getByRole('dialog', { name: 'Remove machine-a?' }).getByRole('button', { name: 'Remove machine' }).click();
    await page.getByText('Removed machine-a').waitFor();
    const after = await page.textContent('#licenses');
    // By keyboard: the phone field, its button, then the code the text carried.
    await page.getByLabel(/^Phone/).focus();
    await page.keyboard.type(PHONE);
    await page.keyboard.press('Enter');
    await page.getByRole('textbox', { name: /^Code from the text/ }).waitFor();
    await page.getByRole('textbox', { name: /^Code from the text/ }).fill(await textedCode());
    await page.keyboard.press('Enter');
    await page.getByText('Your sign-in phone is now').waitFor();
    const nextSignIn = await service.call('POST', '/auth/login/init', { body: { email: EMAIL } });

    expect(wrongCode).toContain('code');
    expect(shownKey).toBe(licenseKey);
    expect(before).toContain('machine-a');
    expect(before).toContain('Machines: 1 of 1');
    expect(after).toContain('Machines: 0 of 1');
    expect(after).not.toContain('machine-a');
    expect((await validate(licenseKey, 'fp-machine-b')).body.valid).toBe(true);
    expect((await validate(licenseKey, 'fp-machine-a')).body).toEqual({ valid: false, reason: 'machine_mismatch' });
    expect(nextSignIn.body.phoneMasked).toBe('+*******0042'); // the phone is now a sign-in factor
    expect(csp).toEqual([]);
  }, SLOW);

  test('the sign-in lasts the tab (a reload keeps it); Sign out revokes the token', async () => {
    const email = 'page.buyer.two@example.com';
    await buyerWithLicense(email);
    const page = await chrome.page();
    const csp = cspViolations(page);
    await page.goto(`${service.url}/v1/account`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByRole('textbox', { name: /^Code/ }).waitFor();
    await page.getByRole('textbox', { name: /^Code/ }).fill(await mailedCode(email));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Pro Plan' }).first().waitFor();
    const token = await page.evaluate(() => sessionStorage.getItem('licensing.identityToken'));
    const device = await page.evaluate(() => sessionStorage.getItem('licensing.deviceFingerprint'));
    const cookies = await page.context().cookies();

    await page.reload();
    await page.getByRole('heading', { name: 'Pro Plan' }).first().waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('Signed out.').waitFor();
    const afterSignOut = await fetch(`${service.url}/v1/customer/licenses`, { headers: { authorization: `Bearer ${token}`, 'x-device-fingerprint': device ?? '' } });

    expect(token).toStartWith('idt_');
    expect(cookies).toEqual([]);
    expect(await page.getByLabel('E-mail').isVisible()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('licensing.identityToken'))).toBeNull();
    expect(afterSignOut.status).toBe(401);
    expect(csp).toEqual([]);
  }, SLOW);

  test('the receipt’s link confirms the checkout’s phone by keyboard at 375 px, and signs in', async () => {
    const email = 'page.link@example.com';
    const phone = '+15550100043';
    const { sessionId, checkoutUrl } = await initCheckout(service.call, seller);
    const checkout = await chrome.page();
    await checkout.goto(checkoutUrl);
    await payWith(checkout, { email, phone });
    await checkout.waitForURL(/\/v1\/checkout\/success/);
    expect((await service.call('GET', `/checkout/status/${sessionId}`)).body.status).toBe('complete');
    let link: string | undefined;
    for (let tries = 0; !link && tries < 200; tries++) {
      const mail = await service.call('GET', `/sandbox/mail?to=${encodeURIComponent(email)}`);
      link = mail.body.data.map((m: { text: string }) => /(http\S+#phone-link=\S+)/.exec(m.text)?.[1]).find(Boolean);
      if (!link) await Bun.sleep(50);
    }
    expect(link).toStartWith(`${service.url}/v1/account#phone-link=`);

    const page = await chrome.page();
    await page.setViewportSize(NARROW);
    const csp = cspViolations(page);
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Confirm your sign-in phone' }).waitFor();
    const address = page.url();
    const linkAxe = await axeViolations(page);
    await page.getByRole('button', { name: 'Text me a code' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('textbox', { name: /^Code from the text/ }).waitFor();
    const sentText = await page.textContent('#link-code-sent');
    const outbox = await service.call('GET', `/sandbox/outbox?to=${encodeURIComponent(phone)}`);
    await page.keyboard.type(/\b(\d{6})\b/.exec(outbox.body.data[0].body)![1]!);
    await page.keyboard.press('Enter');
    await page.getByText('Your sign-in phone is now').waitFor();
    await page.getByRole('heading', { name: 'Pro Plan' }).waitFor();
    const signedInAxe = await axeViolations(page);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    const nextSignIn = await service.call('POST', '/auth/login/init', { body: { email } });

    expect(address).not.toContain('phone-link'); // the token left the address bar at once
    expect(sentText).toContain('*******0043');
    expect(nextSignIn.body.phoneMasked).toBe('+*******0043');
    expect(linkAxe).toEqual([]);
    expect(signedInAxe).toEqual([]);
    expect(scrollWidth).toBeLessThanOrEqual(NARROW.width);
    expect(csp).toEqual([]);
  }, SLOW);

  test('axe-core finds nothing on the sign-in form, nor on the code form', async () => {
    const page = await chrome.page();
    await page.setViewportSize(NARROW);
    await page.goto(`${service.url}/v1/account`);
    const emailForm = await axeViolations(page);
    await page.getByLabel('E-mail').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByRole('textbox', { name: /^Code/ }).waitFor();
    expect(emailForm).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
  }, SLOW);

  test('the pages asked for nothing but 127.0.0.1', () => {
    expect(chrome.blocked).toEqual([]);
  });
});
