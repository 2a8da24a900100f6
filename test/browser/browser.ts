import { afterAll, beforeAll } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

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

/**
 * One headless Chromium for the test file that calls it (launched before its tests, closed after).
 * Every request a page makes must go to 127.0.0.1: anything else is aborted and recorded in `blocked`.
 */
export function useChromium() {
  let browser: Browser | undefined;
  const blocked: string[] = [];
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: SLOW });
  }, SLOW);
  afterAll(async () => {
    await browser?.close();
  });
  return {
    blocked,
    /** A page in a fresh context (no cookies shared between tests). */
    async page(viewport = DESKTOP): Promise<Page> {
      if (!browser) throw new Error('Chromium did not start');
      const context = await browser.newContext({ viewport, locale: 'en-US' });
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
