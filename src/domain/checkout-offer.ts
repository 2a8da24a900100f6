/** What a buyer is told before paying: the same words on the sandbox's page and Stripe's. */
import { formatPrice } from './money.ts';
import type { Product } from './product.ts';
import { periodEndAfter } from './subscription.ts';
import type { SubscriptionTrial } from './trial.ts';

export interface CheckoutOffer {
  /** "$9.00", or with its interval: "$9.00 / month". */
  price: string;
  /** "Sold by …": whom the buyer pays. */
  seller: string;
  /** The terms, one sentence each, in the order a buyer needs them. */
  terms: string[];
  /** What the confirming button says: nothing is paid when a trial starts. */
  action: 'Pay' | 'Start free trial';
}

export interface OfferInput {
  product: Pick<Product, 'price' | 'currency' | 'licenseDays' | 'interval' | 'graceDays' | 'features'>;
  sellerName: string;
  /** When the page is shown (or the session made): the first period counts from here. */
  now: number;
  /** The subscription's trial; null when it is charged at once. */
  trial: SubscriptionTrial | null;
  /** The buyer is not known yet (no e-mail): a trial they already hold would count instead of this one. */
  buyerUnknown?: boolean;
}

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A day as buyers read it, in UTC (the processors' billing calendar): "11 December 2026". */
export function offerDay(ms: number): string {
  return DAY.format(ms);
}

/** How long a one-off license bought now lasts. */
export function licenseTerm(licenseDays: number | null): string {
  if (licenseDays === null) return 'Perpetual license: it never expires.';
  return licenseDays === 1 ? 'License for 1 day from payment.' : `License for ${licenseDays} days from payment.`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The offer: price with its interval, the first charge and renewal, the trial's length and end, the seller. */
export function checkoutOffer({ product, sellerName, now, trial, buyerUnknown = false }: OfferInput): CheckoutOffer {
  const amount = formatPrice(product.price, product.currency);
  const seller = `Sold by ${sellerName}.`;
  const features = product.features.length ? [`Includes: ${product.features.join(', ')}.`] : [];
  const interval = product.interval;
  if (interval === null) return { price: amount, seller, terms: [licenseTerm(product.licenseDays), ...features], action: 'Pay' };
  const firstCharge = trial?.end ?? now;
  const renewal = periodEndAfter(firstCharge, interval);
  const terms = trial
    ? [
        `Free trial: ${plural(trial.days, 'day')}, until ${offerDay(trial.end)}. Nothing is charged today.`,
        `First charge: ${amount} on ${offerDay(trial.end)}, when the trial ends; then ${amount} every ${interval}, next on ${offerDay(renewal)}.`,
        `Cancel before ${offerDay(trial.end)} and nothing is charged: the license ends with the trial.`,
        ...(buyerUnknown ? ['Had a free trial of it already? Only its remaining days apply (none once it has ended), never a new trial.'] : []),
      ]
    : [
        `${amount} today, then every ${interval}: the first renewal is on ${offerDay(renewal)}.`,
        `Cancel any time: the license runs to the end of the ${interval} paid for, plus ${plural(product.graceDays, 'day')} of grace.`,
      ];
  return { price: `${amount} / ${interval}`, seller, terms: [...terms, ...features], action: trial ? 'Start free trial' : 'Pay' };
}

/** The offer as one paragraph (Stripe's description and its text beside the Pay button). */
export function offerText(offer: CheckoutOffer): string {
  return [offer.price, ...offer.terms, offer.seller].join(' ');
}
