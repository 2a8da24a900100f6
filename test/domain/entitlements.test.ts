import { describe, expect, test } from 'bun:test';
import {
  ENTITLEMENT_LIMITS, entitlementsProblem, hasEntitlement, isEntitlementCode, missingEntitlements, normalizeEntitlements, sameEntitlements, unionEntitlements,
} from '../../src/domain/entitlements.ts';

describe('entitlement codes', () => {
  test('1 to 100 characters, anything but control characters', () => {
    expect(isEntitlementCode('pro')).toBe(true);
    expect(isEntitlementCode('Export PDF — ünicode')).toBe(true);
    expect(isEntitlementCode('x'.repeat(ENTITLEMENT_LIMITS.codeMax))).toBe(true);
    for (const bad of ['', 'x'.repeat(101), 'pro\u0000', '\u0007bell', 'tab\there', 'line\nbreak', 'del\u007f', 'c1\u0085', 42, null]) {
      expect(isEntitlementCode(bad)).toBe(false);
    }
  });

  test('a list is a problem named after its field: too many codes, or one bad code', () => {
    expect(entitlementsProblem('features', ['a', 'b'])).toBeNull();
    expect(entitlementsProblem('features', Array.from({ length: 100 }, (_, i) => `f${i}`))).toBeNull();
    expect(entitlementsProblem('scope.entitlements', Array.from({ length: 101 }, (_, i) => `f${i}`))?.field).toBe('scope.entitlements');
    const nul = entitlementsProblem('entitlements', ['ok', 'bad\u0000']);
    expect(nul?.field).toBe('entitlements');
    expect(nul?.message).toContain('control characters');
  });
});

describe('normalizeEntitlements', () => {
  test('case-insensitively distinct, the first spelling and the order kept', () => {
    expect(normalizeEntitlements(['Pro', 'export', 'PRO', 'Export', 'sync', 'pro'])).toEqual(['Pro', 'export', 'sync']);
  });

  test('none given means none; the input is left alone', () => {
    expect(normalizeEntitlements(undefined)).toEqual([]);
    const input = ['a', 'A'];
    expect(normalizeEntitlements(input)).not.toBe(input);
    expect(input).toEqual(['a', 'A']);
  });
});

describe('unionEntitlements', () => {
  test('the first set, then what the second adds; spellings of the first win', () => {
    expect(unionEntitlements(['pro', 'Export'], ['EXPORT', 'sync', 'Pro', 'beta'])).toEqual(['pro', 'Export', 'sync', 'beta']);
  });

  test('either side empty', () => {
    expect(unionEntitlements([], ['a', 'A', 'b'])).toEqual(['a', 'b']);
    expect(unionEntitlements(['a', 'b'], [])).toEqual(['a', 'b']);
  });
});

describe('missingEntitlements and hasEntitlement', () => {
  test('the asked codes the license lacks, as asked, once each', () => {
    expect(missingEntitlements(['pro', 'Export'], ['PRO', 'export', 'Sync', 'sync', 'beta'])).toEqual(['Sync', 'beta']);
    expect(missingEntitlements(['pro'], [])).toEqual([]);
    expect(missingEntitlements([], ['pro'])).toEqual(['pro']);
  });

  test('case-insensitive membership', () => {
    expect(hasEntitlement(['Pro'], 'pro')).toBe(true);
    expect(hasEntitlement(['Pro'], 'PRO')).toBe(true);
    expect(hasEntitlement(['Pro'], 'pr')).toBe(false);
    expect(hasEntitlement([], 'pro')).toBe(false);
  });
});

describe('sameEntitlements', () => {
  test('order and spelling do not count; a code more or less does', () => {
    expect(sameEntitlements(['pro', 'export'], ['EXPORT', 'Pro'])).toBe(true);
    expect(sameEntitlements([], [])).toBe(true);
    expect(sameEntitlements(['pro'], ['pro', 'export'])).toBe(false);
    expect(sameEntitlements(['pro', 'export'], ['pro', 'sync'])).toBe(false);
  });
});
