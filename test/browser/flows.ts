import type { Page } from 'playwright-core';
import type { Call, Seller } from './service.ts';

/** Opens the URL from POST /connect/start and clicks Authorize, as a seller would. */
export async function connectInBrowser(page: Page, call: Call, seller: Pick<Seller, 'apiKey'>): Promise<void> {
  const start = await call('POST', '/connect/start', { key: seller.apiKey });
  if (start.status !== 200) throw new Error(`connect start: ${JSON.stringify(start.body)}`);
  await page.goto(start.body.url);
  await page.getByRole('link', { name: 'Authorize' }).click();
  await page.waitForURL(/\/v1\/connect\/callback\?/);
}

/** Fills the phone (the only field without a value) and clicks Pay. */
/** `button`: the page's confirming button ("Start free trial" when a subscription's trial starts). */
export async function payWith(page: Page, fields: { email?: string; phone?: string; cardNumber?: string } = {}, button = 'Pay'): Promise<void> {
  if (fields.email !== undefined) await page.getByLabel('E-mail').fill(fields.email);
  await page.getByLabel('Phone').fill(fields.phone ?? '+1 555 010 0000');
  if (fields.cardNumber !== undefined) await page.getByLabel('Card number').fill(fields.cardNumber);
  await page.getByRole('button', { name: button, exact: true }).click();
}
