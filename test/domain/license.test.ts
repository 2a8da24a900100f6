import { describe, expect, test } from 'bun:test';
import { expiryFor, isExpired, licenseChangesOf, licenseChangesProblem, licenseStatus, viewLicense, type License } from '../../src/domain/license.ts';

const NOW = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

function aLicense(overrides: Partial<License> = {}): License {
  return {
    id: 'lic_1',
    developerId: 'dev_1',
    productId: 'prod_1',
    customerId: 'cus_1',
    storedStatus: 'active',
    features: ['pro'],
    issuedAt: NOW - DAY,
    expiresAt: NOW + DAY,
    machineFingerprint: null,
    maxMachines: 1,
    licenseKey: 'header.payload.signature',
    trial: false,
    subscriptionId: null,
    ...overrides,
  };
}

describe('expiry at the exact millisecond', () => {
  test('a license is not expired one millisecond before expiresAt', () => {
    expect(isExpired(NOW, NOW - 1)).toBe(false);
  });

  test('a license is expired at expiresAt', () => {
    expect(isExpired(NOW, NOW)).toBe(true);
  });

  test('a license stays expired after expiresAt', () => {
    expect(isExpired(NOW, NOW + 1)).toBe(true);
  });

  test('a perpetual license (expiresAt null) never expires', () => {
    expect(isExpired(null, Number.MAX_SAFE_INTEGER)).toBe(false);
  });
});

describe('licenseStatus', () => {
  test('an active, unexpired license is active', () => {
    expect(licenseStatus(aLicense(), NOW)).toBe('active');
  });

  test('an active license is active at expiresAt - 1 and expired at expiresAt', () => {
    const l = aLicense({ expiresAt: NOW });
    expect(licenseStatus(l, NOW - 1)).toBe('active');
    expect(licenseStatus(l, NOW)).toBe('expired');
  });

  test('revoked wins over expired', () => {
    expect(licenseStatus(aLicense({ storedStatus: 'revoked', expiresAt: NOW - DAY }), NOW)).toBe('revoked');
  });

  test('a perpetual active license stays active', () => {
    expect(licenseStatus(aLicense({ expiresAt: null }), Number.MAX_SAFE_INTEGER)).toBe('active');
  });
});

describe('viewLicense', () => {
  test('shows the spec fields with the status derived from the clock', () => {
    const l = aLicense({ expiresAt: NOW, machineFingerprint: 'fp' });
    expect(viewLicense(l, NOW)).toEqual({
      id: 'lic_1',
      productId: 'prod_1',
      customerId: 'cus_1',
      status: 'expired',
      features: ['pro'],
      issuedAt: NOW - DAY,
      expiresAt: NOW,
      machineFingerprint: 'fp',
    });
  });

  test('never exposes the license key, the stored status or the developer id', () => {
    const view = viewLicense(aLicense(), NOW) as unknown as Record<string, unknown>;
    expect(view).not.toHaveProperty('licenseKey');
    expect(view).not.toHaveProperty('storedStatus');
    expect(view).not.toHaveProperty('developerId');
  });

  test('a revoked license is viewed as revoked', () => {
    expect(viewLicense(aLicense({ storedStatus: 'revoked' }), NOW).status).toBe('revoked');
  });
});

describe('expiryFor', () => {
  test('a product with licenseDays null issues perpetual licenses', () => {
    expect(expiryFor(null, NOW)).toBeNull();
  });

  test('a 30-day product expires exactly 30 × 24 h after issue', () => {
    expect(expiryFor(30, NOW)).toBe(NOW + 30 * DAY);
  });
});

describe('a seller’s changes to one license', () => {
  test('only the changeable fields are taken from a request; the rest (status, key, owner) never reach the store', () => {
    const request = { maxMachines: 3, storedStatus: 'revoked', licenseKey: 'x', developerId: 'dev_other', ['__proto__']: { polluted: true } };
    expect(licenseChangesOf(request)).toEqual({ maxMachines: 3 });
    expect(licenseChangesOf({})).toEqual({});
    expect(licenseChangesOf({ maxMachines: null })).toEqual({ maxMachines: null });
  });

  test('a field out of its bounds is named', () => {
    expect(licenseChangesProblem({ maxMachines: 0 })?.field).toBe('maxMachines');
    expect(licenseChangesProblem({ maxMachines: null })).toBeNull();
    expect(licenseChangesProblem({})).toBeNull();
  });
});
