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
  active: boolean;
  createdAt: number;
  updatedAt: number;
}

export type ProductChanges = Partial<Pick<Product, 'name' | 'price' | 'currency' | 'features' | 'licenseDays' | 'active'>>;

export const CHANGEABLE = ['name', 'price', 'currency', 'features', 'licenseDays', 'active'] as const satisfies readonly (keyof ProductChanges)[];

/** Only the changeable fields are read: anything else a caller sends (an id, an owner) is ignored. */
export function applyProductChanges(product: Product, changes: ProductChanges, now: number): Product {
  const picked: ProductChanges = {};
  for (const field of CHANGEABLE) {
    if (changes[field] !== undefined) Object.assign(picked, { [field]: changes[field] });
  }
  return { ...product, ...picked, updatedAt: now };
}

/** Distinct features, order kept: the same entitlement twice means nothing more. */
export function normalizeFeatures(features: readonly string[] | undefined): string[] {
  return [...new Set(features ?? [])];
}

export const PRODUCT_LIMITS = { nameMax: 200, priceMax: 99_999_999, featuresMax: 100, featureMax: 100, licenseDaysMax: 36_500 };
const CURRENCY = /^[a-z]{3}$/;

/** The invariants of a product, whoever calls: returns the first broken one. */
export function productProblem(p: Pick<Product, 'name' | 'price' | 'currency' | 'features' | 'licenseDays'>): { field: string; message: string } | null {
  if (!p.name.trim() || p.name.length > PRODUCT_LIMITS.nameMax) return { field: 'name', message: 'name must be 1 to 200 characters.' };
  if (!Number.isSafeInteger(p.price) || p.price < 0 || p.price > PRODUCT_LIMITS.priceMax)
    return { field: 'price', message: 'price must be a non-negative integer in minor units.' };
  if (!CURRENCY.test(p.currency)) return { field: 'currency', message: 'currency must be an ISO 4217 code in lower case, e.g. "usd".' };
  if (p.features.length > PRODUCT_LIMITS.featuresMax || p.features.some((f) => !f || f.length > PRODUCT_LIMITS.featureMax))
    return { field: 'features', message: 'features must be at most 100 non-empty strings of at most 100 characters.' };
  if (p.licenseDays !== null && (!Number.isSafeInteger(p.licenseDays) || p.licenseDays < 1 || p.licenseDays > PRODUCT_LIMITS.licenseDaysMax))
    return { field: 'licenseDays', message: 'licenseDays must be a whole number of days from 1 to 36500, or null for perpetual.' };
  return null;
}
