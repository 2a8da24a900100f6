import { deactivationsProblem, maxMachinesProblem } from './activation.ts';
import { ENTITLEMENT_LIMITS, entitlementsProblem } from './entitlements.ts';
import { DomainError, NotFoundError } from './errors.ts';
import { isOneOf } from './vocabulary.ts';
import { leaseTermsProblem, type LeaseTerms } from './lease.ts';

/** Products a developer sells. Prices are integers in the currency's minor unit. */
export interface Product {
  id: string;
  developerId: string;
  name: string;
  price: number;
  currency: string;
  features: string[];
  /** null = perpetual licenses. */
  licenseDays: number | null;
  /** Machines per license issued from now on (copied onto each license); null = unlimited. */
  maxMachines: number | null;
  /** How many machines a license's holder may deactivate per rolling 30 days (the seller: any number). */
  deactivationsPer30Days: number;
  /** Recurring: billed every month or year, each paid period extending the license; null = one-off. */
  interval: BillingInterval | null;
  /** Days a subscription's license runs past a period not yet paid for (a late or retried payment). */
  graceDays: number;
  /** Days of a free trial, one per customer e-mail and per machine; null = no trial. */
  trialDays: number | null;
  /** Floating leases (docs/leases.md): seats per license, null = leases off; each license may override. */
  maxLeases: LeaseTerms['maxLeases'];
  /** How long a lease lasts without a heartbeat (default 600, at least 60). */
  leaseSeconds: number;
  /** Hours a lease may be borrowed for offline use; 0 = none. */
  maxBorrowHours: number;
  active: boolean;
  createdAt: number;
  updatedAt: number;
}

export const BILLING_INTERVALS = ['month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

export type ProductChanges = Partial<
  Pick<
    Product,
    | 'name' | 'price' | 'currency' | 'features' | 'licenseDays' | 'maxMachines' | 'deactivationsPer30Days' | 'interval' | 'graceDays' | 'trialDays' | 'active'
    | 'maxLeases' | 'leaseSeconds' | 'maxBorrowHours'
  >
>;

export const CHANGEABLE = [
  'name',
  'price',
  'currency',
  'features',
  'licenseDays',
  'maxMachines',
  'deactivationsPer30Days',
  'interval',
  'graceDays',
  'trialDays',
  'active',
  'maxLeases',
  'leaseSeconds',
  'maxBorrowHours',
] as const satisfies readonly (keyof ProductChanges)[];

export const DEFAULT_GRACE_DAYS = 3;

/** Only the changeable fields are read: anything else a caller sends (an id, an owner) is ignored. */
export function applyProductChanges(product: Product, changes: ProductChanges, now: number): Product {
  const picked: ProductChanges = {};
  for (const field of CHANGEABLE) {
    if (changes[field] !== undefined) Object.assign(picked, { [field]: changes[field] });
  }
  return { ...product, ...picked, updatedAt: now };
}

export const PRODUCT_LIMITS = { nameMax: 200, priceMax: 99_999_999, featuresMax: ENTITLEMENT_LIMITS.max, featureMax: ENTITLEMENT_LIMITS.codeMax, licenseDaysMax: 36_500, graceDaysMax: 60, trialDaysMax: 365 };
const CURRENCY = /^[a-z]{3}$/;

/** What a seller reads when a price or a currency is refused, wherever it is refused (schema or use case). */
export const PRODUCT_MESSAGES = {
  price: 'price must be a whole number in the currency’s minor unit (cents for usd: 1999 is $19.99; yen for jpy: 500 is ¥500), from 0 to 99999999.',
  currency: 'currency must be a three-letter ISO 4217 code, e.g. "usd" or "EUR" (stored in lower case).',
  interval: `interval must be ${BILLING_INTERVALS.map((i) => `"${i}"`).join(', ')}, or null for a one-off product.`,
  graceDays: `graceDays must be a whole number of days from 0 to ${PRODUCT_LIMITS.graceDaysMax}.`,
  trialDays: `trialDays must be a whole number of days from 1 to ${PRODUCT_LIMITS.trialDaysMax}, or null for no trial.`,
};

/** ISO 4217 codes are case-insensitive: "USD" is stored as "usd"; anything else is left for productProblem. */
export function normalizeCurrency(currency: string): string {
  return /^[A-Za-z]{3}$/.test(currency) ? currency.toLowerCase() : currency;
}

/** The invariants of a product, whoever calls: returns the first broken one. */
export function productProblem(
  p: Pick<Product, 'name' | 'price' | 'currency' | 'features' | 'licenseDays'> &
    Partial<Pick<Product, 'maxMachines' | 'deactivationsPer30Days' | 'interval' | 'graceDays' | 'trialDays' | 'maxLeases' | 'leaseSeconds' | 'maxBorrowHours'>>,
): { field: string; message: string } | null {
  if (!p.name.trim() || p.name.length > PRODUCT_LIMITS.nameMax) return { field: 'name', message: 'name must be 1 to 200 characters.' };
  if (!Number.isSafeInteger(p.price) || p.price < 0 || p.price > PRODUCT_LIMITS.priceMax)
    return { field: 'price', message: PRODUCT_MESSAGES.price };
  if (!CURRENCY.test(p.currency)) return { field: 'currency', message: PRODUCT_MESSAGES.currency };
  const features = entitlementsProblem('features', p.features);
  if (features) return features;
  if (p.licenseDays !== null && (!Number.isSafeInteger(p.licenseDays) || p.licenseDays < 1 || p.licenseDays > PRODUCT_LIMITS.licenseDaysMax))
    return { field: 'licenseDays', message: 'licenseDays must be a whole number of days from 1 to 36500, or null for perpetual.' };
  const machines = p.maxMachines === undefined ? null : maxMachinesProblem(p.maxMachines);
  if (machines) return { field: 'maxMachines', message: machines };
  const quota = p.deactivationsPer30Days === undefined ? null : deactivationsProblem(p.deactivationsPer30Days);
  if (quota) return { field: 'deactivationsPer30Days', message: quota };
  return leaseTermsProblem(p) ?? billingProblem(p);
}

function billingProblem(p: Partial<Pick<Product, 'licenseDays' | 'interval' | 'graceDays' | 'trialDays' | 'price'>>): { field: string; message: string } | null {
  if (p.interval != null && !isOneOf(BILLING_INTERVALS, p.interval))
    return { field: 'interval', message: PRODUCT_MESSAGES.interval };
  if (p.interval != null && p.licenseDays != null)
    return { field: 'licenseDays', message: 'A recurring product’s licenses last one paid period plus graceDays: licenseDays must be null when interval is set.' };
  if (p.interval != null && p.price === 0)
    return { field: 'price', message: 'A recurring product needs a price above 0 (a free product needs no subscription).' };
  if (p.graceDays !== undefined && (!Number.isSafeInteger(p.graceDays) || p.graceDays < 0 || p.graceDays > PRODUCT_LIMITS.graceDaysMax))
    return { field: 'graceDays', message: PRODUCT_MESSAGES.graceDays };
  if (p.trialDays != null && (!Number.isSafeInteger(p.trialDays) || p.trialDays < 1 || p.trialDays > PRODUCT_LIMITS.trialDaysMax))
    return { field: 'trialDays', message: PRODUCT_MESSAGES.trialDays };
  return null;
}

/**
 * An inactive product stays 404 `not_found` at checkout and purchase (the documented status), but
 * says why: a seller should not hunt for a typo in an id that exists.
 */
export class ProductNotOnSaleError extends DomainError {
  constructor() {
    super('not_found', 'This product is not on sale: it is inactive (its seller can set active: true to sell it again).');
  }
}

/** The product when it may be bought; why not otherwise. */
export function onSale(product: Product | null): Product {
  if (!product) throw new NotFoundError('product');
  if (!product.active) throw new ProductNotOnSaleError();
  return product;
}

/**
 * The products a license check is for (docs/client.md, "Product scope"): an application names its
 * product, or its editions, so that a key of the seller's other products opens nothing. Ids have the
 * shape the service gives them; a list is bounded so no request carries more than a screenful.
 */
export const PRODUCT_SCOPE_LIMITS = { maxProducts: 20, idMax: 100 } as const;
export const PRODUCT_ID_PATTERN = '^prod_[0-9A-Za-z]{1,95}$';
const PRODUCT_ID = new RegExp(PRODUCT_ID_PATTERN);
export const PRODUCT_SCOPE_MESSAGE = `productId must be a product id (prod_ followed by letters and digits, at most ${PRODUCT_SCOPE_LIMITS.idMax} characters) or a list of 1 to ${PRODUCT_SCOPE_LIMITS.maxProducts} of them.`;

export function isProductId(value: unknown): value is string {
  return typeof value === 'string' && PRODUCT_ID.test(value);
}

/** One id or a list of them, as a list; null when the value is no valid scope. */
export function productScope(value: unknown): string[] | null {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || list.length > PRODUCT_SCOPE_LIMITS.maxProducts || !list.every(isProductId)) return null;
  return [...new Set(list as string[])];
}

/** No scope (an application from before product scope) is every product of the seller. */
export function inProductScope(productId: string, scope: readonly string[] | undefined): boolean {
  return scope === undefined || scope.includes(productId);
}
