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
  // Nothing but the loopback address resolves, whatever a page links to.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

export const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 900, height: 900 };

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
 * contexts closed after its tests. Every request a page makes must go to 127.0.0.1: anything else
 * is aborted and recorded in `blocked` (this file's pages only).
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
    async page(viewport = DESKTOP): Promise<Page> {
      if (!browser) throw new Error('Chromium did not start');
      const context = await browser.newContext({ viewport, locale: 'en-US' });
      contexts.push(context);
      context.setDefaultTimeout(SLOW / 3);
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.hostname === '127.0.0.1') return route.continue();
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
