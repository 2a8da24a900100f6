import { describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { sha256Hashing } from '../../src/adapters/crypto/sha256-hashing.ts';

describe('sha256Hashing.hash', () => {
  test('is SHA-256, base64url encoded (43 characters, no padding)', () => {
    const digest = sha256Hashing.hash('sk_secret');
    expect(digest).toBe(createHash('sha256').update('sk_secret').digest('base64url'));
    expect(digest).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test('is deterministic, so a key can be found by its digest', () => {
    expect(sha256Hashing.hash('sk_a')).toBe(sha256Hashing.hash('sk_a'));
  });

  test('differs for different secrets and never contains the secret', () => {
    expect(sha256Hashing.hash('sk_a')).not.toBe(sha256Hashing.hash('sk_b'));
    expect(sha256Hashing.hash('sk_abcdef')).not.toContain('abcdef');
  });
});

describe('sha256Hashing.equal', () => {
  test('equal digests are equal', () => {
    expect(sha256Hashing.equal(sha256Hashing.hash('x'), sha256Hashing.hash('x'))).toBe(true);
  });

  test('digests of different secrets are not equal', () => {
    expect(sha256Hashing.equal(sha256Hashing.hash('x'), sha256Hashing.hash('y'))).toBe(false);
  });

  test('strings of different lengths are unequal without throwing', () => {
    const digest = sha256Hashing.hash('x');
    expect(sha256Hashing.equal(digest, digest.slice(0, -1))).toBe(false);
    expect(sha256Hashing.equal(digest, '')).toBe(false);
    expect(sha256Hashing.equal('', digest)).toBe(false);
  });

  test('a one-character difference at the end is unequal', () => {
    expect(sha256Hashing.equal('abcd', 'abce')).toBe(false);
  });

  test('two empty strings are equal', () => {
    expect(sha256Hashing.equal('', '')).toBe(true);
  });

  test('compares bytes, not loosely: case differs', () => {
    expect(sha256Hashing.equal('abc', 'ABC')).toBe(false);
  });
});
