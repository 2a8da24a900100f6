import { afterAll, beforeAll, expect, test } from 'bun:test';
import { CONSOLE_COOKIE } from '../../src/domain/console-session.ts';
import { mailedCode } from '../support/sign-in.ts';
import { SLOW, useChromium } from './browser.ts';
import { useSandboxService } from './service.ts';

/**
 * The console's session cookie in a real Chromium (docs/console-sign-in.md): kept although the
 * service runs on plain http (127.0.0.1 counts as secure), sent back by the browser alone, hidden from
 * scripts; and a page of another origin that posts to the service with it is refused.
 */
const chrome = useChromium();
const service = useSandboxService();
const EMAIL = 'console.cookie@example.com';

let foreign: ReturnType<typeof Bun.serve>;
beforeAll(async () => {
  expect((await service.call('POST', '/developers/signup', { body: { email: EMAIL, name: 'Seller' } })).status).toBe(201);
  // Another origin on the same host (another port): it tries "sign out everywhere" with the seller's cookie.
  foreign = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () =>
      new Response(
        `<!doctype html><title>elsewhere</title><form method="post" action="${service.url}/v1/developers/console/sessions/revoke-all"></form><script>document.forms[0].submit()</script>`,
        { headers: { 'content-type': 'text/html' } },
      ),
  });
}, SLOW);
afterAll(async () => {
  await foreign?.stop(true);
});

/** Signs in from a page of the service's own origin, as the console does; the CSRF token. */
async function signInInPage(page: import('playwright-core').Page): Promise<string> {
  await page.goto(`${service.url}/v1/health`);
  const post = (path: string, body: unknown) =>
    page.evaluate(async ([p, b]) => {
      const response = await fetch(`/v1${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b), credentials: 'same-origin' });
      return { status: response.status, body: await response.json() };
    }, [path, body] as const);
  const started = await post('/developers/login', { email: EMAIL });
  const verified = await post('/developers/login/verify', { loginId: started.body.loginId, code: await mailedCode(service.call, EMAIL) });
  expect(verified.status).toBe(200);
  return verified.body.csrfToken;
}

const get = (page: import('playwright-core').Page, path: string, csrf?: string) =>
  page.evaluate(async ([p, token]) => (await fetch(`/v1${p}`, { headers: token ? { 'x-csrf-token': token } : {}, credentials: 'same-origin' })).status, [path, csrf] as const);

test('Chromium keeps the Secure __Host- cookie on http://127.0.0.1, sends it back on its own, and hides it from scripts', async () => {
  const page = await chrome.page();
  const csrf = await signInInPage(page);

  const cookies = await page.context().cookies(service.url);
  const sessionStatus = await get(page, '/developers/console/session');
  const productsStatus = await get(page, '/developers/products', csrf);
  const withoutCsrf = await get(page, '/developers/products');
  const visibleToScript = await page.evaluate(() => document.cookie);

  expect(cookies.filter((c) => c.name === CONSOLE_COOKIE)).toEqual([
    expect.objectContaining({ name: CONSOLE_COOKIE, httpOnly: true, secure: true, sameSite: 'Strict', path: '/', domain: '127.0.0.1' }),
  ]);
  expect([sessionStatus, productsStatus, withoutCsrf]).toEqual([200, 200, 403]);
  expect(visibleToScript).not.toContain(CONSOLE_COOKIE);
}, SLOW);

test('a page of another origin posting to the service with the seller’s cookie is refused, and the session lives on', async () => {
  const page = await chrome.page();
  const csrf = await signInInPage(page);

  await page.goto(`http://127.0.0.1:${foreign.port}/`);
  await page.waitForURL(/revoke-all/);
  const answer = JSON.parse((await page.textContent('body')) ?? '{}');
  await page.goto(`${service.url}/v1/health`);

  expect(answer.error.code).toBe('forbidden');
  expect(await get(page, '/developers/products', csrf)).toBe(200);
}, SLOW);
