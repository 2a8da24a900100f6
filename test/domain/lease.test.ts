import { describe, expect, test } from 'bun:test';
import { DEFAULT_LEASE_TERMS, effectiveLeaseTerms, isLive, leaseExpiry, leaseOverridesProblem, leasesOff, leaseTermsProblem, NO_LEASE_OVERRIDES } from '../../src/domain/lease.ts';

const HOUR = 3_600_000;

describe('lease terms', () => {
  test('a product starts with leases off, 600 seconds and no borrowing', () => {
    expect(DEFAULT_LEASE_TERMS).toEqual({ maxLeases: null, leaseSeconds: 600, maxBorrowHours: 0 });
    expect(leasesOff(DEFAULT_LEASE_TERMS)).toBe(true);
  });

  test('a license’s own terms win field by field; null is the product’s; 0 seats turns leases off for it', () => {
    const product = { maxLeases: 5, leaseSeconds: 300, maxBorrowHours: 24 };
    expect(effectiveLeaseTerms(product, NO_LEASE_OVERRIDES)).toEqual(product);
    expect(effectiveLeaseTerms(product, { maxLeases: 2, leaseSeconds: null, maxBorrowHours: 0 })).toEqual({ maxLeases: 2, leaseSeconds: 300, maxBorrowHours: 0 });
    expect(leasesOff(effectiveLeaseTerms(product, { ...NO_LEASE_OVERRIDES, maxLeases: 0 }))).toBe(true);
  });

  test('bounds: leaseSeconds at least 60, maxLeases 1 to 10000 on a product (0 allowed on a license), whole numbers only', () => {
    expect(leaseTermsProblem({ leaseSeconds: 60, maxLeases: 1, maxBorrowHours: 0 })).toBeNull();
    expect(leaseTermsProblem({ leaseSeconds: 59 })?.field).toBe('leaseSeconds');
    expect(leaseTermsProblem({ maxLeases: 0 })?.field).toBe('maxLeases');
    expect(leaseTermsProblem({ maxLeases: 2.5 })?.field).toBe('maxLeases');
    expect(leaseTermsProblem({ maxBorrowHours: -1 })?.field).toBe('maxBorrowHours');
    expect(leaseOverridesProblem({ maxLeases: 0, leaseSeconds: null, maxBorrowHours: null })).toBeNull();
    expect(leaseOverridesProblem({ maxLeases: -1, leaseSeconds: null, maxBorrowHours: null })?.field).toBe('maxLeases');
    expect(leaseOverridesProblem({ maxLeases: null, leaseSeconds: 30, maxBorrowHours: null })?.field).toBe('leaseSeconds');
  });
});

describe('lease time', () => {
  test('live while now < expiresAt', () => {
    expect(isLive({ expiresAt: 1000 }, 999)).toBe(true);
    expect(isLive({ expiresAt: 1000 }, 1000)).toBe(false);
  });

  test('a lease ends leaseSeconds from now, a borrowed one borrowHours from now, never after its license', () => {
    expect(leaseExpiry(0, 600, null)).toBe(600_000);
    expect(leaseExpiry(0, 600, null, 48)).toBe(48 * HOUR);
    expect(leaseExpiry(0, 600, 100_000)).toBe(100_000);
    expect(leaseExpiry(0, 600, 100_000, 48)).toBe(100_000);
  });
});
