import { describe, expect, test } from 'bun:test';
import { checkoutPage } from '../../src/adapters/http/pages/checkout-page.ts';
import { connectAuthorizePage, connectedPage } from '../../src/adapters/http/pages/connect-pages.ts';
import { html } from '../../src/adapters/http/pages/html.ts';
import { licensePage, resultPage } from '../../src/adapters/http/pages/result-page.ts';
import { checkoutOffer } from '../../src/domain/checkout-offer.ts';
import type { CheckoutSession } from '../../src/domain/checkout-session.ts';
import type { Product } from '../../src/domain/product.ts';

const HOSTILE = `"><script>alert(1)</script>'`;
const product: Product = {
  id: 'prod_1', developerId: 'dev_1', name: 'Pro', price: 1999, currency: 'usd', features: [], licenseDays: null, maxMachines: 1, deactivationsPer30Days: 3, interval: null, graceDays: 3, trialDays: null, maxLeases: null, leaseSeconds: 600, maxBorrowHours: 0, active: true, createdAt: 0, updatedAt: 0,
};
const session: CheckoutSession = {
  id: 'cs_1', developerId: 'dev_1', productId: 'prod_1', amount: 1999, currency: 'usd', email: null,
  successUrl: 'https://app.example.com/paid', cancelUrl: 'https://app.example.com/cancelled',
  processor: 'sandbox', processorSessionId: 'cs_1', checkoutUrl: null, storedStatus: 'pending', createdAt: 0, expiresAt: 1,
  completedAt: null, licenseId: null, customerId: null, paymentId: null, reconciledAt: null,
};
const page = (changes: Partial<Parameters<typeof checkoutPage>[0]> = {}) => {
  const sold = changes.session ?? session;
  const offer = checkoutOffer({ product: { ...(changes.product ?? product), price: sold.amount, currency: sold.currency }, sellerName: 'Acme Tools', now: 0, trial: null });
  return checkoutPage({ session, product, sellerName: 'Acme Tools', status: 'pending', offer, apiBaseUrl: 'http://127.0.0.1:3000/v1', ...changes });
};

describe('every interpolated value is escaped', () => {
  test('the html tag escapes text and attributes but keeps nested fragments', () => {
    expect(html`<p title="${HOSTILE}">${HOSTILE}${html`<b>ok</b>`}</p>`.value).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&#39;">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&#39;<b>ok</b></p>',
    );
  });

  test('a product name, an e-mail and typed values never become markup', () => {
    const out = page({ product: { ...product, name: HOSTILE }, session: { ...session, email: HOSTILE }, values: { email: HOSTILE, phone: HOSTILE, cardNumber: HOSTILE }, error: 'invalid_phone' });
    expect(out).not.toContain('<script>');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  test('the seller’s name, features and a license key never become markup', () => {
    const checkout = page({ sellerName: HOSTILE, product: { ...product, features: [HOSTILE] } });
    const success = licensePage({ licenseKey: HOSTILE, features: [HOSTILE], expiresAt: null }, 'n0nce');
    for (const out of [checkout, success]) {
      expect(out).not.toContain('<script>alert');
      expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    }
    expect(success).toContain('<script nonce="n0nce">');
  });

  test('redirect URLs and account ids are escaped too', () => {
    const paid = page({ status: 'complete', session: { ...session, successUrl: `https://a.example/?q=${HOSTILE}` } });
    expect(paid).not.toContain('<script>');
    expect(connectedPage({ accountId: HOSTILE })).not.toContain('<script>');
    expect(connectAuthorizePage({ authorizeUrl: HOSTILE, denyUrl: HOSTILE })).not.toContain('<script>');
  });
});

describe('the checkout page', () => {
  test('shows the product, the price for its currency and posts to the sandbox pay route', () => {
    const out = page({ session: { ...session, amount: 500, currency: 'jpy' } });
    expect(out).toContain('<h1>Pro</h1>');
    expect(out).toContain('¥500');
    expect(out).toContain('action="http://127.0.0.1:3000/v1/sandbox/checkout/cs_1/pay"');
    expect(out).toContain('formaction="http://127.0.0.1:3000/v1/sandbox/checkout/cs_1/cancel"');
  });

  test('marks the field in error and tells the buyer why', () => {
    const out = page({ error: 'declined', values: { email: 'a@b.co', phone: '+15550100000', cardNumber: '4000 0000 0000 0002' } });
    expect(out).toContain('role="alert"');
    expect(out).toContain('Your card was declined');
    expect(out).toMatch(/name="cardNumber"[^>]*value="4000 0000 0000 0002" aria-invalid="true"/);
    expect(out).toMatch(/name="phone"[^>]*value="\+15550100000">/);
  });

  test('names the test cards: one that pays, one declined, and the two that pay but fail later saved-card purchases', () => {
    const note = /<div class="note">([\s\S]*?)<\/div>/.exec(page())?.[1] ?? '';
    expect(note).toContain('<code>4242 4242 4242 4242</code>');
    expect(note).toContain('<code>4000 0000 0000 0002</code> is declined');
    expect(note).toContain('<code>4000 0000 0000 0341</code>');
    expect(note).toContain('<code>4000 0027 6000 3184</code>');
    expect(note).toContain('a later saved-card purchase is declined with the first and needs the holder to authenticate with the second');
  });

  test('once paid, it says so and links to the success URL, with no form', () => {
    const out = page({ status: 'complete' });
    expect(out).toContain('Already paid');
    expect(out).toContain('href="https://app.example.com/paid"');
    expect(out).not.toContain('<form');
  });

  test('once expired, it says so and links back, with no form', () => {
    const out = page({ status: 'expired' });
    expect(out).toContain('This checkout has expired');
    expect(out).toContain('href="https://app.example.com/cancelled"');
    expect(out).not.toContain('<form');
  });
});

describe('the result pages', () => {
  test('success tells the buyer the payment is complete and to return to the application', () => {
    expect(resultPage('success')).toContain('Payment complete');
    expect(resultPage('success')).toContain('Return to the application');
  });

  test('cancel tells the buyer to return to the application to try again', () => {
    expect(resultPage('cancel')).toContain('Payment cancelled');
    expect(resultPage('cancel')).toContain('Return to the application to try again');
  });

  test('are whole documents in English, scaled for phones, with no outside assets', () => {
    for (const out of [resultPage('success'), page(), connectedPage({ accountId: 'acct_1' })]) {
      expect(out).toStartWith('<!doctype html>\n<html lang="en">');
      expect(out).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(out).not.toMatch(/<(script|link|img)\b|src=|url\(/);
    }
  });
});
