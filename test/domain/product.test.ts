import { describe, expect, test } from 'bun:test';
import { applyProductChanges, inProductScope, normalizeCurrency, onSale, productProblem, ProductNotOnSaleError, productScope, type Product } from '../../src/domain/product.ts';
import { NotFoundError } from '../../src/domain/errors.ts';

const T0 = Date.UTC(2026, 0, 1);

function aProduct(overrides: Partial<Product> = {}): Product {
  return {
    id: 'prod_1',
    developerId: 'dev_1',
    name: 'Pro',
    price: 1999,
    currency: 'usd',
    features: ['pro'],
    licenseDays: null,
    maxMachines: 1,
    deactivationsPer30Days: 3,
    interval: null,
    graceDays: 3,
    trialDays: null,
    maxLeases: null,
    leaseSeconds: 600,
    maxBorrowHours: 0,
    active: true,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

const fieldOf = (overrides: Partial<Product>) => productProblem(aProduct(overrides))?.field ?? null;

describe('productProblem: the invariants of a product', () => {
  test('a sound product has no problem', () => {
    expect(productProblem(aProduct())).toBeNull();
  });

  test('the edges of every limit are allowed', () => {
    expect(fieldOf({ name: 'x'.repeat(200), price: 0, features: [], licenseDays: 1 })).toBeNull();
    expect(fieldOf({ price: 99_999_999, licenseDays: 36_500, features: Array.from({ length: 100 }, (_, i) => `f${i}`) })).toBeNull();
    expect(fieldOf({ features: ['x'.repeat(100)] })).toBeNull();
  });

  test.each([
    ['an empty name', { name: '' }, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a name over 200 characters', { name: 'x'.repeat(201) }, 'name'],
    ['a negative price', { price: -1 }, 'price'],
    ['a fractional price', { price: 19.99 }, 'price'],
    ['a NaN price', { price: Number.NaN }, 'price'],
    ['a price over the maximum', { price: 100_000_000 }, 'price'],
    ['an upper-case currency', { currency: 'USD' }, 'currency'],
    ['a two-letter currency', { currency: 'us' }, 'currency'],
    ['a four-letter currency', { currency: 'usdd' }, 'currency'],
    ['an empty feature', { features: ['pro', ''] }, 'features'],
    ['a feature over 100 characters', { features: ['x'.repeat(101)] }, 'features'],
    ['more than 100 features', { features: Array.from({ length: 101 }, (_, i) => `f${i}`) }, 'features'],
    ['a feature with a NUL byte', { features: ['pro\u0000'] }, 'features'],
    ['zero licenseDays', { licenseDays: 0 }, 'licenseDays'],
    ['fractional licenseDays', { licenseDays: 1.5 }, 'licenseDays'],
    ['licenseDays over 36500', { licenseDays: 36_501 }, 'licenseDays'],
  ] as [string, Partial<Product>, string][])('%s is a problem', (_name, overrides, field) => {
    const problem = productProblem(aProduct(overrides));
    expect(problem?.field).toBe(field);
    expect(problem?.message.length).toBeGreaterThan(0);
  });

  test('reports the first broken invariant: name before price before currency', () => {
    expect(fieldOf({ name: '', price: -1, currency: 'X' })).toBe('name');
    expect(fieldOf({ price: -1, currency: 'X' })).toBe('price');
  });
});

describe('productProblem: billing (subscriptions and trials)', () => {
  test('a recurring product bills every month or year, with 0 to 60 grace days', () => {
    expect(fieldOf({ interval: 'month', licenseDays: null })).toBeNull();
    expect(fieldOf({ interval: 'year', licenseDays: null, graceDays: 0 })).toBeNull();
    expect(fieldOf({ interval: 'year', licenseDays: null, graceDays: 60 })).toBeNull();
    expect(fieldOf({ interval: 'week' as never, licenseDays: null })).toBe('interval');
    expect(fieldOf({ interval: 'month', licenseDays: null, graceDays: 61 })).toBe('graceDays');
    expect(fieldOf({ graceDays: -1 })).toBe('graceDays');
  });

  test('a recurring product’s term is its period: licenseDays must be null, and the price above 0', () => {
    expect(fieldOf({ interval: 'month', licenseDays: 30 })).toBe('licenseDays');
    expect(fieldOf({ interval: 'month', licenseDays: null, price: 0 })).toBe('price');
    expect(fieldOf({ interval: null, licenseDays: null, price: 0 })).toBeNull();
  });

  test('a trial lasts 1 to 365 days, or there is none', () => {
    expect(fieldOf({ trialDays: 1 })).toBeNull();
    expect(fieldOf({ trialDays: 365 })).toBeNull();
    expect(fieldOf({ trialDays: null })).toBeNull();
    expect(fieldOf({ trialDays: 0 })).toBe('trialDays');
    expect(fieldOf({ trialDays: 366 })).toBe('trialDays');
    expect(fieldOf({ trialDays: 1.5 })).toBe('trialDays');
  });
});

describe('applyProductChanges', () => {
  test('changes only the given fields and stamps updatedAt', () => {
    const next = applyProductChanges(aProduct(), { price: 2999, name: 'Pro 2' }, T0 + 5);
    expect(next).toEqual(aProduct({ price: 2999, name: 'Pro 2', updatedAt: T0 + 5 }));
  });

  test('an undefined value leaves the field as it was', () => {
    const next = applyProductChanges(aProduct(), { name: undefined, price: undefined }, T0 + 5);
    expect(next.name).toBe('Pro');
    expect(next.price).toBe(1999);
  });

  test('licenseDays null makes the product perpetual (null is a value, not an omission)', () => {
    const next = applyProductChanges(aProduct({ licenseDays: 30 }), { licenseDays: null }, T0 + 5);
    expect(next.licenseDays).toBeNull();
  });

  test('can deactivate a product', () => {
    expect(applyProductChanges(aProduct(), { active: false }, T0 + 5).active).toBe(false);
  });

  test('never touches identity or creation time, and leaves the original untouched', () => {
    const original = aProduct();
    const next = applyProductChanges(original, { name: 'Other' }, T0 + 5);
    expect([next.id, next.developerId, next.createdAt]).toEqual(['prod_1', 'dev_1', T0]);
    expect(original).toEqual(aProduct());
  });
});

describe('normalizeCurrency', () => {
  test('an ISO 4217 code in any case is stored in lower case; anything else is left for productProblem to refuse', () => {
    expect(['USD', 'Eur', 'gbp'].map(normalizeCurrency)).toEqual(['usd', 'eur', 'gbp']);
    for (const junk of ['US', 'USDD', 'U$D', 'ÜSD', '']) {
      expect(normalizeCurrency(junk)).toBe(junk);
      expect(productProblem(aProduct({ currency: normalizeCurrency(junk) }))?.field).toBe('currency');
    }
  });
});

describe('onSale', () => {
  test('an active product is on sale; an inactive one is not_found saying so; no product is plain not_found', () => {
    expect(onSale(aProduct())).toEqual(aProduct());
    expect(() => onSale(aProduct({ active: false }))).toThrow(ProductNotOnSaleError);
    expect(() => onSale(aProduct({ active: false }))).toThrow(/not on sale/);
    expect(() => onSale(null)).toThrow(NotFoundError);
  });
});

describe('product scope', () => {
  test('one id or a list of 1 to 20 product ids, duplicates folded; anything else is no scope', () => {
    expect(productScope('prod_1')).toEqual(['prod_1']);
    expect(productScope(['prod_1', 'prod_2', 'prod_1'])).toEqual(['prod_1', 'prod_2']);
    for (const bad of [undefined, null, '', 'pro', 'prod_', 'prod_a-b', `prod_${'a'.repeat(96)}`, [], ['prod_1', 7], Array.from({ length: 21 }, (_, i) => `prod_${i}`)]) {
      expect(productScope(bad)).toBeNull();
    }
  });

  test('no scope (an application from before it) takes every product; a scope only its own', () => {
    expect(inProductScope('prod_1', undefined)).toBe(true);
    expect(inProductScope('prod_1', ['prod_2', 'prod_1'])).toBe(true);
    expect(inProductScope('prod_3', ['prod_2', 'prod_1'])).toBe(false);
  });
});
