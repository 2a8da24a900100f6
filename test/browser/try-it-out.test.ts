import { describe, expect, test } from 'bun:test';
import type { Locator, Page } from 'playwright-core';
import { EXAMPLE } from '../../src/adapters/http/examples.ts';
import { screenshot, SLOW, useChromium } from './browser.ts';
import { newSeller, useSandboxService } from './service.ts';

/**
 * The API reference as a new seller uses it: open /v1/docs, press "Try it out", then "Execute",
 * and read the answer in the response panel. The request goes where the document's servers URL
 * says, so a doubled /v1 would show here as a 404.
 */

const chrome = useChromium();
const service = useSandboxService();

/**
 * Swagger UI renders the whole reference (over 600 KB of document) on the page's one thread: on two
 * busy cores a click can wait half a minute for it, so this file's steps and tests get twice the
 * usual time.
 */
const REFERENCE_SLOW = 2 * SLOW;

async function referencePage(): Promise<Page> {
  const page = await chrome.page();
  page.setDefaultTimeout(SLOW);
  await page.goto(`${service.url}/v1/docs`);
  await page.locator('.opblock').first().waitFor();
  return page;
}

/** An operation's block, expanded (Swagger UI ids: operations-<tag>-<operationId>). */
async function openOperation(page: Page, tag: string, operationId: string): Promise<Locator> {
  const block = page.locator(`#operations-${tag}-${operationId}`);
  await block.locator('.opblock-summary').first().click();
  await block.locator('.opblock-body').waitFor();
  return block;
}

/** "Try it out" (when the page has not already turned it on), then "Execute"; the status shown. */
async function execute(block: Locator): Promise<{ status: string; requestUrl: string }> {
  const tryItOut = block.locator('button.try-out__btn', { hasText: 'Try it out' });
  if (await tryItOut.count()) await tryItOut.click();
  await block.locator('button.execute').click();
  const status = block.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor();
  return { status: (await status.innerText()).trim(), requestUrl: (await block.locator('.request-url pre').first().innerText()).trim() };
}

describe('Try it out in /v1/docs', () => {
  test('GET /health: Execute answers 200 from PUBLIC_BASE_URL/v1/health', async () => {
    const page = await referencePage();

    const block = await openOperation(page, 'Service', 'getV1Health');
    const { status, requestUrl } = await execute(block);
    await screenshot(page, 'docs-try-it-out-health');

    expect(status).toBe('200');
    expect(requestUrl).toBe(`${service.url}/v1/health`);
    expect(await block.locator('.live-responses-table .response .response-col_description').first().innerText()).toContain('"ok"');
  }, REFERENCE_SLOW);

  test('GET /developers/products, authorized with a pasted sk_ key: Execute answers 200 with the seller’s product', async () => {
    const seller = await newSeller(service.call);
    const page = await referencePage();

    await page.getByRole('button', { name: /Authorize/ }).first().click();
    const apiKeyForm = page.locator('.modal-ux .auth-container', { hasText: 'X-API-Key' }).first();
    await apiKeyForm.locator('input').first().fill(seller.apiKey);
    await apiKeyForm.locator('button.authorize').click();
    await page.locator('.modal-ux button.close-modal').first().click();
    const block = await openOperation(page, 'Products', 'getV1DevelopersProducts');
    const { status, requestUrl } = await execute(block);
    await screenshot(page, 'docs-try-it-out-products');

    expect(status).toBe('200');
    expect(requestUrl).toStartWith(`${service.url}/v1/developers/products`);
    expect(await block.locator('.live-responses-table .response .response-col_description').first().innerText()).toContain(seller.productId);
  }, REFERENCE_SLOW);

  test('POST /developers/signup: the example body is filled in, and Execute answers 201 with the new keys', async () => {
    const page = await referencePage();

    const block = await openOperation(page, 'Developers', 'postV1DevelopersSignup');
    const tryItOut = block.locator('button.try-out__btn', { hasText: 'Try it out' });
    if (await tryItOut.count()) await tryItOut.click();
    const body = await block.locator('textarea.body-param__text').inputValue();
    const { status } = await execute(block);

    expect(JSON.parse(body)).toEqual({ email: EXAMPLE.sellerEmail, name: expect.any(String) });
    expect(status).toBe('201');
    expect(await block.locator('.live-responses-table .response .response-col_description').first().innerText()).toContain('"apiKey": "sk_');
  }, REFERENCE_SLOW);

  test('the pages asked for nothing but 127.0.0.1', () => {
    expect(chrome.blocked).toEqual([]);
  });
});
