import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { receiver, verified } from '../webhooks/support.ts';
import { DESKTOP, PHONE, SLOW, useChromium, watchPage } from './browser.ts';
import { CONSOLE_SERVICE, consoleScreenshot, expectAccessible, goInConsole, openConsole, unlessAlert } from './console-pages.ts';
import { connectInBrowser, payWith } from './flows.ts';
import { initCheckout, newSeller, useSandboxService, type Seller } from './service.ts';

/**
 * The seller console (docs/console.md) in a real Chromium under its real CSP, against the real
 * server in sandbox mode: each page's main action end to end, axe on every page at 375 px and on a
 * desktop, a keyboard-only flow, and two sellers who never see each other's data. The console is
 * signed in here by the secret key the browser sends as X-API-Key (the API takes it wherever it
 * takes the console's session); console-sign-in.test.ts signs in as a seller does.
 */

const chrome = useChromium();
const service = useSandboxService(CONSOLE_SERVICE);
const hooks = receiver();
afterAll(() => hooks.stop());

let a: Seller;
let b: Seller;
let monthly: string;
const BUYER = 'console.buyer@example.com';
const SUBSCRIBER = 'console.subscriber@example.com';

/** A buyer pays a checkout of the seller's product in the sandbox (the browser's Pay button). */
async function sale(seller: Seller, productId: string, email: string): Promise<void> {
  const { checkoutUrl } = await initCheckout(service.call, seller, { productId });
  const page = await chrome.page();
  await page.goto(checkoutUrl);
  await payWith(page, { email });
  await page.waitForURL(/\/v1\/checkout\/success/);
  await page.context().close();
}

beforeAll(async () => {
  a = await newSeller(service.call);
  b = await newSeller(service.call);
  await connectInBrowser(await chrome.page(), service.call, a);
  const product = await service.call('POST', '/developers/products', { key: a.apiKey, body: { name: 'Pro monthly', price: 900, currency: 'usd', interval: 'month' } });
  monthly = product.body.id;
  await sale(a, a.productId, BUYER);
  await sale(a, monthly, SUBSCRIBER);
  // An endpoint from the start, so the pages that show one (and B's tries at it) need no other test first.
  // Disabled, so the receiver hears only the endpoint the Webhooks test makes.
  const endpoint = await service.call('POST', '/developers/webhook-endpoints', { key: a.apiKey, body: { url: hooks.url, description: 'Made over the API' } });
  await service.call('PATCH', `/developers/webhook-endpoints/${endpoint.body.id}`, { key: a.apiKey, body: { enabled: false } });
}, SLOW);

/** A console page signed in as `seller` by its secret key; `seen` collects CSP reports and errors. */
async function consolePage(seller: Seller, path = '', viewport = DESKTOP): Promise<{ page: Page; seen: ReturnType<typeof watchPage> }> {
  const page = await chrome.page(viewport, { 'X-API-Key': seller.apiKey });
  const seen = watchPage(page);
  await openConsole(page, service.url, path);
  return { page, seen };
}

/** The destructive action's <dialog>: its question, then the confirming button. */
async function confirm(page: Page, action: string): Promise<string> {
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  const question = (await dialog.getByRole('heading').textContent()) ?? '';
  await dialog.getByRole('button', { name: action }).click();
  await dialog.waitFor({ state: 'hidden' });
  return question;
}

/** Clicks Search and waits until the list the page asks for (its query has `query`) has come back. */
async function searchFor(page: Page, query: string): Promise<void> {
  const answered = page.waitForResponse((r) => r.url().includes(query));
  await page.getByRole('button', { name: 'Search' }).click();
  await answered;
}

/** The number of mails the sandbox holds for this address, once it stops growing past `atLeast`. */
async function mailsTo(email: string, atLeast = 0): Promise<number> {
  for (let i = 0; ; i++) {
    const count = (await service.call('GET', `/sandbox/mail?to=${encodeURIComponent(email)}`)).body.data.length;
    if (count >= atLeast || i === 50) return count;
    await Bun.sleep(100);
  }
}

/** Waits for the action's success news; an error the page shows instead fails the test with its text. */
const status = (page: Page, text: string | RegExp) => unlessAlert(page, page.getByRole('status').filter({ hasText: text }).first());

describe('the console, page by page', () => {
  test('Products: create one with every term the API takes, then edit its price', async () => {
    const { page, seen } = await consolePage(a, '/products');
    await page.getByLabel('Name').fill('Studio');
    await page.getByLabel(/^Price/).fill('49.50');
    await page.getByLabel(/^Currency/).fill('eur');
    await page.getByLabel('Billing').selectOption('year');
    await page.getByLabel(/^Grace days/).fill('5');
    await page.getByLabel(/^Trial days/).fill('14');
    await page.getByLabel(/^Machines per license/).fill('3');
    await page.getByLabel(/^Deactivations per 30 days/).fill('2');
    await page.getByLabel(/^Features/).fill('studio, export');
    await page.getByRole('button', { name: 'Create product' }).click();
    await status(page, 'Created Studio.');
    await page.getByRole('cell', { name: /^Studio/ }).waitFor();
    await page.getByRole('button', { name: 'Edit Studio' }).click();
    await page.getByRole('form', { name: 'Edit Studio' }).getByLabel(/^Price/).fill('59.00');
    await page.getByRole('button', { name: 'Save product' }).click();
    await status(page, 'Saved Studio.');
    const products = await service.call('GET', '/developers/products?limit=100', { key: a.apiKey });
    const studio = products.body.data.find((p: { name: string }) => p.name === 'Studio');

    expect(studio).toMatchObject({ price: 5900, currency: 'eur', interval: 'year', licenseDays: null, graceDays: 5, trialDays: 14, maxMachines: 3, deactivationsPer30Days: 2, features: ['studio', 'export'], active: true });
    expect(seen).toEqual({ csp: [], errors: [] });
  }, SLOW);

  test('Licenses: grant one (key shown once), find it by e-mail, remove a machine, set the limit, set its own entitlements, resend the key, revoke after confirming', async () => {
    const email = 'granted@example.com';
    const { page, seen } = await consolePage(a, '/licenses');
    await page.getByText('Grant a license').click();
    await page.locator('#grant-email').fill(email);
    await page.getByRole('button', { name: 'Grant license' }).click();
    const key = await page.getByLabel('License key').inputValue();
    await page.locator('#f-email').fill(email);
    await searchFor(page, `email=${encodeURIComponent(email)}`);
    await page.waitForFunction(() => document.querySelectorAll('[aria-label=Licenses] tbody tr').length === 1);
    const rows = await page.getByRole('region', { name: 'Licenses' }).getByRole('row').count();
    await page.getByRole('region', { name: 'Licenses' }).getByRole('link').first().click();
    await page.getByRole('heading', { level: 1, name: /^License lic_/ }).waitFor();
    const licenseId = (await page.getByRole('heading', { level: 1 }).textContent())!.replace('License ', '');
    const shownKey = await page.getByLabel('License key').inputValue();
    const grantedFeatures = (await service.call('GET', `/licenses/${licenseId}`, { key: a.apiKey })).body.features;
    await page.getByLabel(/^Machines allowed/).fill('3');
    await page.getByRole('button', { name: 'Set limit' }).click();
    await status(page, 'now allows 3 machines');
    for (const machine of ['machine-a', 'machine-b']) {
      const activated = await service.call('POST', '/licenses/activate', { key: a.publishableKey, body: { licenseKey: key, machineFingerprint: `fp-${machine}`, name: machine } });
      expect(activated.status).toBe(201);
    }
    await page.reload();
    await page.getByRole('button', { name: 'Remove machine-a' }).click();
    const removeQuestion = await confirm(page, 'Remove machine');
    await status(page, 'Removed machine-a.');
    await page.getByLabel(/^Own entitlements/).fill('sync, Sync');
    await page.getByRole('button', { name: 'Set entitlements' }).click();
    await status(page, 'Its key was re-signed');
    const entitled = await service.call('GET', `/licenses/${licenseId}`, { key: a.apiKey });
    const keyAfterEntitlements = await page.getByLabel('License key').inputValue();
    const mailsBefore = await mailsTo(email, 1); // the key mailed when it was granted
    await page.getByRole('button', { name: 'Resend key by e-mail' }).click();
    await status(page, 'on its way');
    // Escape cancels the question: nothing is revoked.
    await page.getByRole('button', { name: 'Revoke license' }).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    const afterEscape = await service.call('GET', `/licenses/${licenseId}`, { key: a.apiKey });
    await page.getByRole('button', { name: 'Revoke license' }).click();
    const revokeQuestion = await confirm(page, 'Revoke license');
    await status(page, 'License revoked.');
    const machines = await service.call('GET', `/licenses/${licenseId}/activations`, { key: a.apiKey });
    const mailsAfter = await mailsTo(email, mailsBefore + 1);
    const validation = await service.call('POST', '/licenses/validate', { key: a.publishableKey, body: { licenseKey: key, machineFingerprint: 'fp-machine-b' } });

    expect(rows).toBe(2); // the header and the one license of that customer
    expect(shownKey).toBe(key);
    expect(removeQuestion).toBe('Remove machine-a?');
    expect(machines.body).toMatchObject({ maxMachines: 3, data: [{ name: 'machine-b' }] });
    expect(entitled.body.features).toEqual([...grantedFeatures, 'sync']);
    expect(keyAfterEntitlements).toBe(entitled.body.licenseKey);
    expect(keyAfterEntitlements).not.toBe(key);
    expect(mailsAfter).toBe(mailsBefore + 1);
    expect(afterEscape.body.status).toBe('active');
    expect(revokeQuestion).toBe('Revoke this license?');
    expect(validation.body).toEqual({ valid: false, reason: 'revoked' });
    await page.reload();
    await page.getByText('license.revoked').waitFor();
    const events = await page.getByRole('region', { name: 'Events' }).getByRole('listitem').allTextContents();
    expect(events.map((e) => e.split(' ')[0])).toEqual(['license.revoked', 'license.updated', 'activation.deleted', 'activation.created', 'activation.created', 'license.created']);
    expect(seen).toEqual({ csp: [], errors: [] });
  }, SLOW);

  test('Customers: a search by the start of an address finds the buyer and links to their license', async () => {
    const { page, seen } = await consolePage(a, '/customers');
    await page.getByLabel('E-mail starts with').fill('console.b');
    await searchFor(page, 'email=console.b');
    await page.getByRole('cell', { name: BUYER }).waitFor();
    const cells = await page.getByRole('region', { name: 'Customers' }).getByRole('row').count();
    await page.getByRole('link', { name: 'Pro Plan' }).click();
    await page.getByRole('heading', { level: 1, name: /^License lic_/ }).waitFor();

    expect(cells).toBe(2);
    expect(seen).toEqual({ csp: [], errors: [] });
  }, SLOW);

  test('Orders: refund a paid order in full after confirming', async () => {
    const { page, seen } = await consolePage(a, '/orders');
    await page.getByRole('button', { name: `Refund order from ${BUYER}` }).click();
    await page.getByRole('button', { name: 'Refund order', exact: true }).click();
    const question = await confirm(page, 'Refund');
    await status(page, `Refunded $19.99 to ${BUYER}.`);
    const orders = await service.call('GET', `/developers/orders?email=${BUYER}`, { key: a.apiKey });

    expect(question).toBe('Refund $19.99?');
    expect(orders.body.data[0]).toMatchObject({ status: 'refunded', amountRefunded: 1999 });
    expect(seen).toEqual({ csp: [], errors: [] });
  }, SLOW);

  test('Subscriptions: cancel one after confirming; it ends at the period end', async () => {
    const { page, seen } = await consolePage(a, '/subscriptions');
    await page.getByRole('button', { name: `Cancel subscription of ${SUBSCRIBER}` }).click();
    await confirm(page, 'Cancel subscription');
    await status(page, `Canceled ${SUBSCRIBER}'s subscription.`);
    await page.getByText('ends at period end').waitFor();
    const subscriptions = await service.call('GET', `/developers/subscriptions?productId=${monthly}`, { key: a.apiKey });

    expect(subscriptions.body.data[0]).toMatchObject({ customerEmail: SUBSCRIBER, cancelAtPeriodEnd: true });
    expect(seen).toEqual({ csp: [], errors: [] });
  }, SLOW);

  test('Webhooks: create an endpoint (its secret shown once), send a test event signed with it, read the attempts, redeliver, rotate, disable', async () => {
    const { page, seen } = await consolePage(a, '/webhooks');
    await page.getByLabel(/^URL/).fill(hooks.url);
    await page.getByLabel(/^Description/).fill('Console test');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    const secret = await page.getByLabel('Signing secret').inputValue();
    await page.getByRole('link', { name: `Open ${hooks.url}` }).click();
    await page.getByRole('heading', { level: 1, name: `Endpoint ${hooks.url}` }).waitFor();
    const secretShownAgain = (await page.content()).includes(secret);
    const endpointId = page.url().split('/').pop();

    await page.getByRole('button', { name: 'Send a test event' }).click();
    await status(page, /Test event sent/);
    // The test event goes out from the delivery queue: read its attempts once the receiver has it.
    const testEvent = () => hooks.received.find((m) => JSON.parse(m.body).type === 'webhook.test');
    for (let i = 0; i < 100 && !testEvent(); i++) await Bun.sleep(100);
    let attempts: string[] = [];
    for (let i = 0; i < 20 && !attempts.join().includes('HTTP 200'); i++) {
      await page.getByRole('button', { name: /^Attempts/ }).first().click();
      await page.getByRole('heading', { name: /^Attempts of/ }).waitFor();
      attempts = await page.getByRole('heading', { name: /^Attempts of/ }).locator('..').getByRole('listitem').allTextContents();
      if (!attempts.join().includes('HTTP 200')) await Bun.sleep(250);
    }
    await page.getByRole('button', { name: /^Redeliver \w+$/ }).first().click();
    await status(page, /Redelivered/);
    await page.getByRole('button', { name: 'Redeliver failed deliveries of the last 30 days' }).click();
    await status(page, /^0 failed deliveries of the last 30 days are going out again\.$/);
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await confirm(page, 'Rotate secret');
    const rotated = await page.getByLabel('New signing secret').inputValue();
    await page.getByRole('button', { name: 'Disable endpoint' }).click();
    await confirm(page, 'Disable endpoint');
    await status(page, 'Endpoint disabled.');
    const endpoints = await service.call('GET', '/developers/webhook-endpoints', { key: a.apiKey });

    expect(secret).toMatch(/^whsec_/);
    expect(secretShownAgain).toBe(false);
    expect(verified(secret, testEvent()!).type).toBe('webhook.test');
    expect(attempts.join('\n')).toContain('HTTP 200');
    expect(rotated).not.toBe(secret);
    expect(endpoints.body.data.find((e: { id: string }) => e.id === endpointId)).toMatchObject({ url: hooks.url, description: 'Console test', enabled: false });
    expect(seen).toEqual({ csp: [], errors: [] });
  }, SLOW);

  test('Developers: create a secret key (shown once, it works), revoke it after confirming (it stops), rotate the signing key', async () => {
    const { page, seen } = await consolePage(a, '/developers');
    await page.getByLabel('Scope').selectOption('secret');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const key = await page.getByLabel('Secret key').inputValue();
    const works = await service.call('GET', '/developers/products', { key });
    const keys = await service.call('GET', '/developers/api-keys', { key: a.apiKey });
    const made = keys.body.data.filter((k: { scope: string }) => k.scope === 'secret').sort((x: { createdAt: number }, y: { createdAt: number }) => y.createdAt - x.createdAt)[0];
    await page.getByRole('button', { name: `Revoke ${made.id}` }).click();
    await confirm(page, 'Revoke key');
    await status(page, `Revoked ${made.id}.`);
    const stopped = await service.call('GET', '/developers/products', { key });
    const before = await service.call('GET', `/developers/${a.id}/jwks.json`);
    await page.getByRole('button', { name: 'Rotate signing key' }).click();
    await confirm(page, 'Rotate signing key');
    await status(page, /^New signing key/);
    const after = await service.call('GET', `/developers/${a.id}/jwks.json`);

    expect(key).toMatch(/^sk_/);
    expect(works.status).toBe(200);
    expect(stopped.status).toBe(401);
    expect(after.body.keys.length).toBe(before.body.keys.length + 1);
    expect(seen).toEqual({ csp: [], errors: [] });
  }, SLOW);

  test('Developers: Connect with Stripe goes through the (sandbox) authorization and comes back connected', async () => {
    const { page, seen } = await consolePage(b, '/developers');
    await page.getByText('Not connected').waitFor();
    await page.getByRole('button', { name: 'Connect with Stripe' }).click();
    await page.getByRole('link', { name: 'Authorize' }).click();
    await page.waitForURL(/\/v1\/connect\/callback\?/);
    await openConsole(page, service.url, '/developers');
    await page.getByText(/^Connected: payouts go to/).waitFor();
    const connect = await service.call('GET', '/connect/status', { key: b.apiKey });

    expect(connect.body.connected).toBe(true);
    expect(seen.csp).toEqual([]);
  }, SLOW);

  test('Overview: the totals, revenue per currency and new licenses per day as charts over 30, 90 and 365 days, recent orders', async () => {
    const { page, seen } = await consolePage(a, '');
    await page.getByRole('list', { name: 'Totals' }).waitFor();
    const tiles = async () => (await page.getByRole('list', { name: 'Totals' }).getByRole('listitem').allTextContents()).join(' | ');
    const month = await tiles();
    const charts = await page.locator('figure canvas').count();
    const captions = await page.locator('figcaption').allTextContents();
    const recent = await page.getByRole('region', { name: 'Recent orders' }).first().textContent();
    await page.getByRole('button', { name: '365 days' }).click();
    await page.getByText('Revenue, 365 days').waitFor();
    const year = await tiles();
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
    const stats = (await service.call('GET', `/developers/stats?from=${from}&to=${today}&interval=day`, { key: a.apiKey })).body;
    const usd = stats.totals.revenue.find((r: { currency: string }) => r.currency === 'usd');

    expect(month).toContain(`Active licenses${stats.totals.activeLicenses}`);
    expect(month).toContain(`Active machines${stats.totals.activeMachines}`);
    expect(month).toContain(`New licenses, 30 days${stats.totals.newLicenses}`);
    expect(month).toContain(`Revenue, 30 days$${(usd.amount / 100).toFixed(2)}`);
    expect(month).toContain(`Monthly recurring revenue$${(stats.totals.mrr[0].amount / 100).toFixed(2)}`);
    expect(year).toContain('New licenses, 365 days');
    expect(charts).toBe(2); // usd revenue, new licenses
    expect(captions).toEqual([`Revenue in USD per day: $${(usd.amount / 100).toFixed(2)} over 30 days`, `New licenses per day: ${stats.totals.newLicenses} over 30 days`]);
    expect(recent).toContain(SUBSCRIBER);
    expect(recent).toContain(BUYER);
    expect(seen).toEqual({ csp: [], errors: [] });
  }, SLOW);
});

describe('the console for everyone', () => {
  test('keyboard only: skip to the content, fill a product, create it, and confirm a destructive action', async () => {
    const { page, seen } = await consolePage(a, '/products');
    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => document.activeElement?.textContent);
    await page.keyboard.press('Enter');
    /** Presses Tab until the focused element's id or text matches. */
    const tabsTo = async (target: RegExp) => {
      for (let i = 0; i < 60; i++) {
        const focused = await page.evaluate(() => `${document.activeElement?.id} ${document.activeElement?.textContent}`);
        if (target.test(focused)) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`Tab never reached ${target}`);
    };
    await tabsTo(/^new-name /);
    await page.keyboard.type('Keyboard');
    await page.keyboard.press('Tab');
    await page.keyboard.type('5');
    await page.keyboard.press('Enter');
    await status(page, 'Created Keyboard.');
    const focusVisible = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);

    await openConsole(page, service.url, '/developers');
    await tabsTo(/^ Revoke/);
    const revokeLabel = await page.evaluate(() => document.activeElement?.textContent);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    const inDialog = await page.evaluate(() => document.activeElement?.textContent);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    const products = await service.call('GET', '/developers/products?limit=100', { key: a.apiKey });

    expect(first).toBe('Skip to content');
    expect(focusVisible).not.toBe('none');
    expect(products.body.data.map((p: { name: string }) => p.name)).toContain('Keyboard');
    expect(revokeLabel).toMatch(/^Revoke/);
    expect(inDialog).toBe('Cancel');
    expect(seen).toEqual({ csp: [], errors: [] });
  }, SLOW);

  test('every page at 375 px and on a desktop: no CSP report, no serious or critical axe violation, no sideways scrolling of the page', async () => {
    const licenses = await service.call('GET', `/developers/licenses?email=${BUYER}`, { key: a.apiKey });
    const endpoints = await service.call('GET', '/developers/webhook-endpoints', { key: a.apiKey });
    const pages: [string, string, RegExp][] = [
      ['overview', '', /^Overview$/],
      ['products', '/products', /^Products$/],
      ['licenses', '/licenses', /^Licenses$/],
      ['license', `/licenses/${licenses.body.data[0].id}`, /^License lic_/],
      ['customers', '/customers', /^Customers$/],
      ['orders', '/orders', /^Orders$/],
      ['subscriptions', '/subscriptions', /^Subscriptions$/],
      ['webhooks', '/webhooks', /^Webhooks$/],
      ['webhook-endpoint', `/webhooks/${endpoints.body.data[0].id}`, /^Endpoint /],
      ['developers', '/developers', /^Developers$/],
      ['sign-in', '/signin', /^Sign in/],
    ];
    for (const [viewport, size] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const page = await chrome.page(viewport, { 'X-API-Key': a.apiKey });
      const seen = watchPage(page);
      await openConsole(page, service.url);
      for (const [name, path, heading] of pages) {
        await goInConsole(page, path, heading);
        await expectAccessible(page, `${name} (${size})`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect({ name, size, overflow }).toEqual({ name, size, overflow: 0 });
        // Every page on a desktop, and two on a phone, are the pictures of docs/console.md (Developers signed in: console-sign-in.test.ts).
        await consoleScreenshot(page, size === 'desktop' ? name : `${name}-phone`, (size === 'desktop' && name !== 'developers') || name === 'license' || name === 'products');
      }
      expect(seen).toEqual({ csp: [], errors: [] });
      await page.context().close();
    }
  }, SLOW * 2);
});

describe('lists', () => {
  test("pages follow the API's cursor: 21 licenses are 20 and then 1, and Previous page comes back to the first 20", async () => {
    const c = await newSeller(service.call);
    for (let i = 0; i < 21; i++) {
      const granted = await service.call('POST', '/developers/licenses', { key: c.apiKey, body: { productId: c.productId, email: `paged-${i}@example.com`, notify: false } });
      expect(granted.status).toBe(201);
    }
    const { page, seen } = await consolePage(c, '/licenses');
    const rows = () => page.locator('[aria-label=Licenses] tbody tr');
    await page.waitForFunction(() => document.querySelectorAll('[aria-label=Licenses] tbody tr').length === 20);
    const first = await rows().allTextContents();
    const cursor = page.waitForResponse((r) => r.url().includes('startingAfter='));
    await page.getByRole('button', { name: 'Next page' }).click();
    const asked = new URL((await cursor).url()).searchParams.get('startingAfter');
    await page.waitForFunction(() => document.querySelectorAll('[aria-label=Licenses] tbody tr').length === 1);
    const second = await rows().allTextContents();
    const nextDisabled = await page.getByRole('button', { name: 'Next page' }).isDisabled();
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label=Licenses] tbody tr').length === 20);
    const back = await rows().allTextContents();

    expect(first.join()).toContain('paged-20@example.com'); // newest first
    expect(first.at(-1)).toContain(asked!); // the cursor is the last id shown
    expect(second).toHaveLength(1);
    expect(second[0]).toContain('paged-0@example.com');
    expect(nextDisabled).toBe(true);
    expect(back).toEqual(first);
    expect(seen).toEqual({ csp: [], errors: [] });
  }, SLOW);
});

describe('two sellers', () => {
  test("seller B's console never shows seller A's licenses, customers, orders or endpoints, even by their ids", async () => {
    const license = (await service.call('GET', `/developers/licenses?email=${BUYER}`, { key: a.apiKey })).body.data[0];
    const endpoint = (await service.call('GET', '/developers/webhook-endpoints', { key: a.apiKey })).body.data[0];
    const { page } = await consolePage(b, '/licenses');
    const seenText: string[] = [];
    for (const [path, heading] of [
      ['/licenses', /^Licenses$/],
      ['/customers', /^Customers$/],
      ['/orders', /^Orders$/],
      ['/subscriptions', /^Subscriptions$/],
      ['/webhooks', /^Webhooks$/],
      ['/products', /^Products$/],
    ] as const) {
      await goInConsole(page, path, heading);
      seenText.push((await page.locator('main').textContent()) ?? '');
    }
    await goInConsole(page, `/licenses/${license.id}`, /^License /);
    const licenseAlert = await page.getByRole('alert').first().textContent();
    const licenseKeyShown = await page.getByLabel('License key').count();
    await goInConsole(page, `/webhooks/${endpoint.id}`, /^Endpoint/);
    const endpointAlert = await page.getByRole('alert').first().textContent();
    const all = seenText.join('\n');

    for (const secretOfA of [BUYER, SUBSCRIBER, 'granted@example.com', hooks.url, 'Studio', 'Pro monthly']) expect(all).not.toContain(secretOfA);
    expect(licenseAlert).toMatch(/not found|no such/i);
    expect(licenseKeyShown).toBe(0);
    expect(endpointAlert).toMatch(/not found|no such/i);
  }, SLOW);
});
