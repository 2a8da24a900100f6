import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { SLOW, useChromium, watchPage } from './browser.ts';
import { CONSOLE_SERVICE, consoleScreenshot, expectAccessible, openConsole, unlessAlert } from './console-pages.ts';
import { newSeller, useSandboxService, type Seller } from './service.ts';

/**
 * Signing in to the seller console as a seller does (docs/console.md, "Signing in"): a code e-mailed
 * to the account's address, or a passkey through Chromium's virtual authenticator. The service runs
 * on http://localhost (CONSOLE_SERVICE).
 */

const chrome = useChromium();
const service = useSandboxService(CONSOLE_SERVICE);
let a: Seller;
let b: Seller;
let licenseOfA: string;

beforeAll(async () => {
  a = await newSeller(service.call);
  b = await newSeller(service.call);
  const granted = await service.call('POST', '/developers/licenses', { key: a.apiKey, body: { productId: a.productId, email: 'only.a@example.com' } });
  licenseOfA = granted.body.license.id;
}, SLOW);

/** The newest 6-digit code in the sandbox mail to this address that is not `not`. */
async function mailedCode(email: string, not?: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const mail = await service.call('GET', `/sandbox/mail?to=${encodeURIComponent(email)}`);
    const code = (mail.body.data ?? []).map((m: { text: string }) => /\b(\d{6})\b/.exec(m.text)?.[1]).find(Boolean);
    if (code && code !== not) return code;
    await Bun.sleep(100);
  }
  throw new Error(`no code mailed to ${email}`);
}

/** From the sign-in view to the overview by an e-mailed code; returns the code used. */
async function signInByCode(page: Page, seller: Seller, previous?: string): Promise<string> {
  await openConsole(page, service.url);
  await page.getByRole('heading', { level: 1, name: 'Sign in to the seller console' }).waitFor();
  await page.getByLabel('E-mail').fill(seller.email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByLabel('Code').waitFor();
  const code = await mailedCode(seller.email, previous);
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  return code;
}

describe('signing in to the console', () => {
  test('by an e-mailed code: a wrong code is said in place; the session cookie is __Host-, HttpOnly, Secure and SameSite=Strict; the console works by it; a reload keeps it; sign out ends it', async () => {
    const page = await chrome.page();
    const seen = watchPage(page);
    await openConsole(page, service.url);
    await page.getByLabel('E-mail').fill(a.email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByLabel('Code').fill('000000');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const wrong = await page.getByRole('alert').textContent();
    await expectAccessible(page, 'sign-in, code step');
    await page.getByLabel('Code').fill(await mailedCode(a.email));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const cookie = (await page.context().cookies()).find((c) => c.name === '__Host-licensing_console');

    // A write by the session alone (the console's fetch wrapper adds the CSRF token).
    await openConsole(page, service.url, '/products');
    await page.getByLabel('Name').fill('By session');
    await page.getByLabel(/^Price/).fill('9');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByRole('status').filter({ hasText: 'Created By session.' }).waitFor();
    // The same write without the token is refused.
    const withoutToken = await page.evaluate(() => fetch('/v1/developers/products', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x', price: 100, currency: 'usd' }) }).then((r) => r.status));
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor();
    await page.getByRole('cell', { name: /^By session/ }).waitFor();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to the seller console' }).waitFor();
    const afterSignOut = await page.evaluate(() => fetch('/v1/developers/products').then((r) => r.status));

    expect(wrong?.length).toBeGreaterThan(0);
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
    expect(withoutToken).toBe(403);
    expect(afterSignOut).toBe(401);
    expect(seen).toEqual({ csp: [], errors: [] });
  }, SLOW);

  test("add a passkey under Developers with Chromium's virtual authenticator, sign out, sign in with it", async () => {
    const page = await chrome.page();
    const seen = watchPage(page);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await signInByCode(page, b);
    await openConsole(page, service.url, '/developers');
    await page.getByLabel(/^Passkey name/).fill('Test laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('status').filter({ hasText: 'Passkey added' }).waitFor();
    await page.getByRole('button', { name: 'Remove passkey Test laptop' }).waitFor();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    // Back where the seller signed out.
    await unlessAlert(page, page.getByRole('heading', { level: 1, name: 'Developers' }));
    await page.getByRole('cell', { name: /by passkey/ }).first().waitFor();
    const current = await page.getByRole('row').filter({ hasText: 'this session' }).textContent();
    // Signed in, the page shows what docs/console.md pictures: the JWKS, this session, the passkey.
    await page.getByText(/^Public keys:/).waitFor();
    await consoleScreenshot(page, 'developers', true);

    expect(current).toContain('by passkey');
    expect(seen).toEqual({ csp: [], errors: [] });
  }, SLOW);

  test("a seller signed in by session never sees another seller's license, even by its id", async () => {
    const page = await chrome.page();
    await signInByCode(page, b);
    await openConsole(page, service.url, '/licenses');
    await page.waitForFunction(() => !document.querySelector('main')?.textContent?.includes('Loading…'));
    const list = await page.locator('main').textContent();
    await openConsole(page, service.url, `/licenses/${licenseOfA}`);
    const alert = await page.getByRole('alert').first().textContent();

    expect(list).not.toContain('only.a@example.com');
    expect(alert).toMatch(/not found|no such/i);
    expect(await page.getByLabel('License key').count()).toBe(0);
  }, SLOW);
});
