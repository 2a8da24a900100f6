import { afterAll, beforeAll } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { atProcessEnd } from '../support/process-end.ts';

/** Browser tests wait on a real Chromium and a real server sharing two busy cores. */
export const SLOW = 90_000;
export const ARTIFACTS = join(import.meta.dir, '..', '..', 'test-artifacts');

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
  // Nothing but the loopback address resolves, whatever a page links to; `localhost` too, the one
  // loopback name a WebAuthn relying party can use (an rpID is a domain, never an IP address).
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];

export const PHONE = { width: 375, height: 740 };
export const DESKTOP = { width: 900, height: 900 };

const LOOPBACK = new Set(['127.0.0.1', 'localhost']);

let launched: Promise<Browser> | undefined;

/**
 * The one headless Chromium of this `bun test` process: launched by the first file that asks,
 * closed once the last file has run. A launch and its first context cost seconds on two busy cores;
 * a new context per test keeps the tests apart as well as a browser per file did.
 */
function sharedChromium(): Promise<Browser> {
  if (!launched) {
    const browser = chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: SLOW });
    launched = browser;
    browser.catch(() => {
      if (launched === browser) launched = undefined; // the next file tries again
    });
    atProcessEnd(async () => {
      await (await browser.catch(() => undefined))?.close();
    });
  }
  return launched;
}

/**
 * Headless Chromium for the test file that calls it: the process's shared browser, with the file's
 * contexts closed after its tests. Every request a page makes must go to the loopback (127.0.0.1 or
 * localhost): anything else is aborted and recorded in `blocked` (this file's pages only).
 */
export function useChromium() {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const blocked: string[] = [];
  beforeAll(async () => {
    browser = await sharedChromium();
  }, SLOW);
  afterAll(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  return {
    blocked,
    /** A page in a fresh context (no cookies shared between tests). */
    async page(viewport = DESKTOP, headers?: Record<string, string>): Promise<Page> {
      if (!browser) throw new Error('Chromium did not start');
      const context = await browser.newContext({ viewport, locale: 'en-US', extraHTTPHeaders: headers });
      contexts.push(context);
      context.setDefaultTimeout(SLOW / 3);
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (LOOPBACK.has(url.hostname)) return route.continue();
        blocked.push(url.toString());
        return route.abort('blockedbyclient');
      });
      return context.newPage();
    },
  };
}

/** A full-page screenshot in test-artifacts/ (git-ignored; CI keeps it as an artifact). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/**
 * What went wrong in a page while a test used it: Content Security Policy reports (Chromium logs
 * each refused script, style, image or connection to the console) and any other console error or
 * uncaught exception but the HTTP error statuses Chromium logs for requests the page made itself.
 * A page that works under its policy leaves both empty.
 */
export function watchPage(page: Page): { csp: string[]; errors: string[] } {
  const seen = { csp: [] as string[], errors: [] as string[] };
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.csp.push(message.text());
    // An HTTP error status the page asked for and handles itself (a 401 probe, a 404 shown in place) is not a fault.
    else if (message.type() === 'error' && !message.text().startsWith('Failed to load resource: the server responded with a status of')) seen.errors.push(message.text());
  });
  page.on('pageerror', (error) => seen.errors.push(String(error)));
  return seen;
}
