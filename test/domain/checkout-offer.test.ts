import { describe, expect, test } from 'bun:test';
import { checkoutOffer, offerText } from '../../src/domain/checkout-offer.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 27, 15);
const monthly = { price: 900, currency: 'usd', licenseDays: null, interval: 'month' as const, graceDays: 3, features: [] };

describe('what a buyer is told before paying', () => {
  test('a monthly product with a trial: price per month, trial length and end, the first charge and the renewal after it, the seller', () => {
    const offer = checkoutOffer({ product: monthly, sellerName: 'Acme Tools', now: NOW, trial: { days: 14, end: NOW + 14 * DAY } });

    expect(offer).toEqual({
      price: '$9.00 / month',
      seller: 'Sold by Acme Tools.',
      terms: [
        'Free trial: 14 days, until 11 December 2026. Nothing is charged today.',
        'First charge: $9.00 on 11 December 2026, when the trial ends; then $9.00 every month, next on 11 January 2027.',
        'Cancel before 11 December 2026 and nothing is charged: the license ends with the trial.',
      ],
      action: 'Start free trial',
    });
    expect(offerText(offer)).toStartWith('$9.00 / month Free trial: 14 days');
    expect(offerText(offer)).toEndWith('Sold by Acme Tools.');
  });

  test('a monthly product without a trial is charged today and renews a calendar month on (31 January → 28 February)', () => {
    const offer = checkoutOffer({ product: monthly, sellerName: 'Acme', now: Date.UTC(2026, 0, 31, 9), trial: null });

    expect(offer.price).toBe('$9.00 / month');
    expect(offer.terms[0]).toBe('$9.00 today, then every month: the first renewal is on 28 February 2026.');
    expect(offer.terms.join(' ')).not.toContain('Perpetual');
    expect(offer.action).toBe('Pay');
  });

  test('a yearly product, in its currency; a one-day trial is “1 day”', () => {
    const offer = checkoutOffer({ product: { ...monthly, interval: 'year', price: 9900, currency: 'eur' }, sellerName: 'Acme', now: NOW, trial: { days: 1, end: NOW + DAY } });

    expect(offer.price).toBe('€99.00 / year');
    expect(offer.terms[0]).toBe('Free trial: 1 day, until 28 November 2026. Nothing is charged today.');
    expect(offer.terms[1]).toContain('then €99.00 every year, next on 28 November 2027.');
  });

  test('with the buyer not known yet, it says a trial they already hold counts instead', () => {
    const offer = checkoutOffer({ product: monthly, sellerName: 'Acme', now: NOW, trial: { days: 14, end: NOW + 14 * DAY }, buyerUnknown: true });

    expect(offer.terms).toContain('Had a free trial of it already? Only its remaining days apply (none once it has ended), never a new trial.');
  });

  test('a one-off product keeps its license term and lists its features', () => {
    expect(checkoutOffer({ product: { ...monthly, interval: null, features: ['pro'] }, sellerName: 'Acme', now: NOW, trial: null })).toEqual({
      price: '$9.00',
      seller: 'Sold by Acme.',
      terms: ['Perpetual license: it never expires.', 'Includes: pro.'],
      action: 'Pay',
    });
    expect(checkoutOffer({ product: { ...monthly, interval: null, licenseDays: 365 }, sellerName: 'Acme', now: NOW, trial: null }).terms).toEqual(['License for 365 days from payment.']);
  });
});
