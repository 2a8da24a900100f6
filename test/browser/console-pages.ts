import { expect } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { axeViolations } from './axe.ts';
import { screenshot } from './browser.ts';
import type { ServiceOptions } from './service.ts';

/**
 * The sandbox service the console's test files share: on http://localhost (a passkey's relying
 * party is a domain, never an IP address), webhooks allowed to a receiver on the loopback.
 */
export const CONSOLE_SERVICE: ServiceOptions = { hostname: 'localhost', env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } };

/** Opens a console page and waits until its heading is there (the app has booted and routed). */
export async function openConsole(page: Page, base: string, path = ''): Promise<void> {
  await page.goto(`${base}/v1/console${path}`);
  await page.locator('h1').first().waitFor();
}

/**
 * Moves to another console page the way its links do (history, no reload: the page keeps axe-core
 * loaded), then waits for that page's heading and for its data to have loaded.
 */
export async function goInConsole(page: Page, path: string, heading: RegExp): Promise<void> {
  await page.evaluate((to) => {
    const base = document.getElementById('console')!.dataset.base!;
    history.pushState(null, '', `${base}${to}`);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await page.waitForFunction(() => !document.querySelector('main')?.textContent?.includes('Loading…'));
}

/**
 * Waits for `done` (a heading, a status message); an error the page shows instead (one more
 * role=alert than before) fails the test with its text.
 */
export async function unlessAlert(page: Page, done: Locator): Promise<void> {
  const alerts = page.getByRole('alert');
  const before = await alerts.count();
  const failed = page.waitForFunction((n) => document.querySelectorAll('[role=alert]').length > n, before).then(async () => {
    throw new Error(`the page shows an error: ${await alerts.last().textContent()}`);
  });
  failed.catch(() => {});
  await Promise.race([done.waitFor(), failed]);
}

/** axe-core's WCAG A/AA rules: nothing serious or critical on the page as it stands. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect({ where, serious }).toEqual({ where, serious: [] });
}

/**
 * A screenshot of a console page into test-artifacts/ like every browser test's; one `forDocs` goes
 * into docs/console/ instead when UPDATE_CONSOLE_SCREENSHOTS=1 (the pictures docs/console.md shows).
 */
export async function consoleScreenshot(page: Page, name: string, forDocs: boolean): Promise<void> {
  if (process.env.UPDATE_CONSOLE_SCREENSHOTS !== '1' || !forDocs) return screenshot(page, `console-${name}`);
  const dir = join(import.meta.dir, '..', '..', 'docs', 'console');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
