import { describe, expect, test } from 'bun:test';
import { receiptFor, type ReceiptContext, type ReceiptReason } from '../../src/app/mail/receipt.ts';
import { NEW_LICENSE, type License } from '../../src/domain/license.ts';
import { FixedClock } from '../support/clock.ts';

/** What a receipt says for each reason, rendered without a store: text and HTML alike, outside input escaped. */

const KEY = 'eyJhbGciOiJFZERTQSJ9.eyJpZCI6ImxpY18xIn0.c2ln';
const license: License = {
  ...NEW_LICENSE,
  id: 'lic_1',
  developerId: 'dev_1',
  productId: 'prod_1',
  customerId: 'cus_1',
  features: ['pro'],
  issuedAt: Date.UTC(2026, 0, 1),
  expiresAt: Date.UTC(2026, 0, 15),
  maxMachines: 1,
  licenseKey: KEY,
};
const context: ReceiptContext = {
  to: 'ada@example.com',
  seller: 'Acme Tools',
  product: 'Acme Pro',
  publishableKey: 'pk_receipts',
  apiBaseUrl: 'https://licensing.example.com/v1',
  accountUrl: 'https://licensing.example.com/v1/account',
};
const ids = { next: (prefix: string) => `${prefix}_1`, secret: (prefix: string) => `${prefix}x` };
const render = (reason: ReceiptReason, over: Partial<ReceiptContext> = {}, lic: License = license) =>
  receiptFor({ clock: new FixedClock(), ids }, { ...context, ...over }, reason)(lic);

describe('a receipt’s content', () => {
  test.each([
    [{ kind: 'paid', amount: 1999, currency: 'usd' } as const, 'Paid: $19.99'],
    [{ kind: 'paid', amount: 500, currency: 'jpy' } as const, 'Paid: ¥500'],
    [{ kind: 'renewal', amount: 900, currency: 'eur' } as const, 'Paid: €9.00'],
    [{ kind: 'trial' } as const, 'Free trial until 2026-01-15 (UTC)'],
    [{ kind: 'grant' } as const, 'Granted by Acme Tools'],
    [{ kind: 'resend', revoked: false } as const, 'Sent again at Acme Tools'],
    [{ kind: 'resend', revoked: true } as const, 'revoked by Acme Tools: its key no longer activates'],
  ])('%o says %p in both parts', (reason, words) => {
    const mail = render(reason);
    expect(mail.text).toContain(words);
    expect(mail.html).toContain(words.replaceAll("'", '&#39;'));
    expect(mail).toMatchObject({ id: 'mail_1', kind: 'receipt', licenseId: 'lic_1', to: 'ada@example.com', subject: 'Your Acme Pro license from Acme Tools' });
  });

  test('the activation command carries the publishable key and the API address, never the key (pasted when asked); the account link is there', () => {
    const mail = render({ kind: 'grant' });
    const command = 'licensing activate --publishable-key pk_receipts --api-url https://licensing.example.com/v1';
    expect(mail.text).toContain('paste the key above when it asks');
    expect(mail.text).not.toContain(`activate ${KEY}`);
    expect(mail.text).toContain(command);
    expect(mail.html).toContain(command);
    expect(mail.html).toContain('<a href="https://licensing.example.com/v1/account">');
    expect(mail.html).toContain('<html lang="en">');
  });

  test('a perpetual license is valid with no end date', () => {
    expect(render({ kind: 'grant' }, {}, { ...license, expiresAt: null }).text).toContain('Valid: with no end date');
  });

  test('without a publishable key (the seller revoked it) the command leaves it out and says whom to ask', () => {
    const mail = render({ kind: 'grant' }, { publishableKey: null });
    expect(mail.text).toContain('licensing activate --api-url');
    expect(mail.text).toContain('ask Acme Tools for it');
  });

  test('names are text: markup in them is escaped in the HTML part, line breaks never reach the subject', () => {
    const mail = render({ kind: 'grant' }, { seller: 'Eve <script>alert(1)</script>', product: 'Pro\r\nBcc: x@example.com' });
    expect(mail.html).not.toContain('<script>alert(1)');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });
});
