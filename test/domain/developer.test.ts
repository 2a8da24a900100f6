import { describe, expect, test } from 'bun:test';
import { normalizeEmail, scopeOfKey } from '../../src/domain/developer.ts';

describe('normalizeEmail', () => {
  test('trims and lower-cases, so one address is one account', () => {
    expect(normalizeEmail('  Dev@Example.COM ')).toBe('dev@example.com');
  });

  test('accepts plus addressing and subdomains', () => {
    expect(normalizeEmail('a.b+tag@mail.example.co.uk')).toBe('a.b+tag@mail.example.co.uk');
  });

  test.each([
    ['empty', ''],
    ['no @', 'dev.example.com'],
    ['no domain dot', 'dev@example'],
    ['no local part', '@example.com'],
    ['two @', 'a@b@example.com'],
    ['inner whitespace', 'de v@example.com'],
  ])('rejects %s', (_name, email) => {
    expect(normalizeEmail(email)).toBeNull();
  });

  test('accepts 254 characters and rejects 255', () => {
    const at254 = `${'a'.repeat(254 - '@example.com'.length)}@example.com`;
    expect(normalizeEmail(at254)).toBe(at254);
    expect(normalizeEmail(`a${at254}`)).toBeNull();
  });
});

describe('scopeOfKey', () => {
  test('sk_ keys are secret, pk_ keys are publishable, anything else is no key', () => {
    expect(scopeOfKey('sk_abc')).toBe('secret');
    expect(scopeOfKey('pk_abc')).toBe('publishable');
    expect(scopeOfKey('SK_abc')).toBeNull();
    expect(scopeOfKey('abc')).toBeNull();
    expect(scopeOfKey('')).toBeNull();
  });
});
