import { describe, expect, test } from 'bun:test';
import { KEY_AVAILABLE_FOR_MS } from '../../src/app/checkout/checkout-status.ts';
import { API_BASE, pathOf, sandboxShop } from './support.ts';

/** What a browser gets (issue 10): pages, never raw JSON; API clients keep the JSON contract. */

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8' };
const title = (page: string) => /<h1>([^<]*)<\/h1>/.exec(page)?.[1];

describe('browser routes answer a page when the client asks for HTML', () => {
  const CASES: [string, string, number, string][] = [
    ['the sandbox checkout of an unknown session', '/sandbox/checkout/cs_doesNotExist', 404, 'Checkout not found'],
    ['the outbox view without ?to=', '/sandbox/outbox/view', 400, 'Which phone?'],
    ['the Connect callback without a state', '/connect/callback', 400, 'Not connected'],
    ['the Connect callback with an unknown state (the seller denied)', '/connect/callback?error=access_denied&state=st_unknown', 400, 'Not connected'],
  ];

  test.each(CASES)('%s: an HTML page with the same status, under the pages’ CSP', async (_, path, status, heading) => {
    const shop = await sandboxShop();
    const reply = await shop.api.call<string>('GET', path, { headers: BROWSER });
    expect(reply.status).toBe(status);
    expect(reply.headers.get('content-type')).toStartWith('text/html');
    expect(reply.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(title(reply.body)).toBe(heading);
  });

  test.each(CASES)('%s: the JSON error for an API client', async (_, path, status) => {
    const shop = await sandboxShop();
    for (const headers of [{}, { accept: '*/*' }, { accept: 'application/json' }] as Record<string, string>[]) {
      const reply = await shop.api.call('GET', path, { headers });
      expect(reply.status).toBe(status);
      expect(reply.body.error.code).toBe(status === 404 ? 'not_found' : 'invalid_request');
    }
  });

  test('the outbox page without ?to= asks for the phone with a form', async () => {
    const shop = await sandboxShop();
    const reply = await shop.api.call<string>('GET', '/sandbox/outbox/view', { headers: BROWSER });
    expect(reply.body).toMatch(/<form class="lookup" method="get">[\s\S]*name="to"/);
  });

  test('a form post to an unknown session (a browser’s Pay) gets the page too', async () => {
    const shop = await sandboxShop();
    const rawBody = 'email=a%40example.com&phone=%2B15551234567&cardNumber=4242424242424242';
    const reply = await shop.api.call<string>('POST', '/sandbox/checkout/cs_doesNotExist/pay', {
      rawBody, headers: { ...BROWSER, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(reply.status).toBe(404);
    expect(title(reply.body)).toBe('Checkout not found');
  });
});

describe('the sandbox checkout page', () => {
  test('shows the seller’s name, the license term and the features', async () => {
    const shop = await sandboxShop();
    await shop.api.call('PATCH', `/developers/products/${shop.seller.product.id}`, { key: shop.seller.apiKey, body: { licenseDays: 365, features: ['pro', 'export'] } });
    const { checkoutUrl } = await shop.checkout();
    const page = (await shop.api.call<string>('GET', pathOf(checkoutUrl), { headers: BROWSER })).body;
    expect(page).toContain('You are buying from <strong>Seller</strong>');
    expect(page).toContain('License for 365 days from payment');
    expect(page).toContain('Includes: pro, export');
  });

  test('a perpetual product says it never expires', async () => {
    const shop = await sandboxShop();
    const { checkoutUrl } = await shop.checkout();
    expect((await shop.api.call<string>('GET', pathOf(checkoutUrl))).body).toContain('Perpetual license: it never expires');
  });
});

describe('the default success page', () => {
  async function paid() {
    const shop = await sandboxShop();
    const { sessionId } = await shop.checkout();
    const pay = await shop.pay(sessionId);
    const location = pay.headers.get('location')!;
    return { shop, sessionId, location, licenseKey: (await shop.status(sessionId)).licenseKey as string };
  }

  test('the default successUrl carries the session id', async () => {
    const { sessionId, location } = await paid();
    expect(location).toBe(`${API_BASE}/checkout/success?session_id=${sessionId}`);
  });

  test('shows the license key, a copy button whose script runs under a CSP nonce, and how to activate it', async () => {
    const { shop, location, licenseKey } = await paid();
    const reply = await shop.api.call<string>('GET', pathOf(location));
    const csp = reply.headers.get('content-security-policy')!;
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(reply.status).toBe(200);
    expect(reply.body).toContain(`<textarea id="license-key" class="key" readonly rows="6" spellcheck="false">${licenseKey}</textarea>`);
    expect(reply.body).toContain('<button type="button" id="copy-key"');
    expect(reply.body).toContain('How to activate it');
    expect(reply.body).toContain('<code>licensing activate</code>, then paste the key when it asks');
    expect(nonce).toBeTruthy();
    expect(reply.body).toContain(`<script nonce="${nonce}">`);
    expect(csp).toContain("default-src 'none'");
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.headers.get('referrer-policy')).toBe('no-referrer');
  });

  test('each answer has its own nonce', async () => {
    const { shop, location } = await paid();
    const nonces = await Promise.all([1, 2].map(async () => (await shop.api.call('GET', pathOf(location))).headers.get('content-security-policy')));
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  test('24 hours after payment, like the checkout status, the key is gone and the plain page remains', async () => {
    const { shop, location, licenseKey } = await paid();
    shop.api.clock.advance(KEY_AVAILABLE_FOR_MS);
    const reply = await shop.api.call<string>('GET', pathOf(location));
    expect(reply.status).toBe(200);
    expect(reply.body).not.toContain(licenseKey);
    expect(title(reply.body)).toBe('Payment complete');
    expect(reply.headers.get('content-security-policy')).not.toContain('script-src');
  });

  test('an unknown, malformed or unpaid session shows the plain page and no key', async () => {
    const shop = await sandboxShop();
    const { sessionId } = await shop.checkout();
    for (const query of ['', '?session_id=cs_doesNotExist', '?session_id=%3Cscript%3E', '?session_id=x&session_id=y']) {
      const reply = await shop.api.call<string>('GET', `/checkout/success${query}`);
      expect(reply.status).toBe(200);
      expect(reply.body).not.toContain('license-key');
    }
    const pending = await shop.api.call<string>('GET', `/checkout/success?session_id=${sessionId}`);
    expect(title(pending.body)).toBe('Payment received');
  });
});
