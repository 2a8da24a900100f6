import { describe, expect, test } from 'bun:test';
import { sha256Hashing } from '../../src/adapters/crypto/sha256-hashing.ts';
import { decoyMaskedPhone, maskPhone } from '../../src/domain/phone.ts';

/** A digest per e-mail (the service uses a keyed one: login.ts). */
const decoyFor = (email: string) => decoyMaskedPhone(sha256Hashing.hash(`phone:${email}`));

describe('maskPhone', () => {
  test('all but the last four digits are masked, the + kept', () => {
    expect(maskPhone('+15551234567')).toBe('+*******4567');
  });

  test('the masked form holds no other digit of the number', () => {
    const masked = maskPhone('+447911123456');
    expect(masked.replace(/\D/g, '')).toBe('3456');
    expect(masked).toHaveLength('+447911123456'.length);
  });

  test('a number without + stays without one', () => {
    expect(maskPhone('5551234567')).toBe('******4567');
  });

  test('separators do not leak as digits or shift the mask', () => {
    expect(maskPhone('+1 (555) 123-4567')).toBe('+*******4567');
  });

  test('a number of four digits or fewer is shown as it is, with nothing to mask', () => {
    expect(maskPhone('1234')).toBe('1234');
  });
});

describe('decoyMaskedPhone (unknown e-mails)', () => {
  test('is shaped like a real masked number of 11 to 13 digits: +, 7 to 9 stars, four digits', () => {
    const real = ['+15551234567', '+447911123456', '+4915112345678'].map((phone) => maskPhone(phone).length);
    for (const email of ['nobody@example.com', 'x@y.z', 'someone.else+tag@example.org']) {
      expect(decoyFor(email)).toMatch(/^\+\*{7,9}\d{4}$/);
      expect(real).toContain(decoyFor(email).length);
    }
  });

  test('its length varies between e-mails as real numbers’ do: each of 11, 12 and 13 digits is common', () => {
    const lengths = Array.from({ length: 300 }, (_, i) => decoyFor(`user${i}@example.com`).length - 1);
    for (const digits of [11, 12, 13]) expect(lengths.filter((n) => n === digits).length).toBeGreaterThan(30);
  });

  test('is the same on every call for the same e-mail', () => {
    expect(decoyFor('nobody@example.com')).toBe(decoyFor('nobody@example.com'));
    expect(decoyMaskedPhone('abc')).toBe(decoyMaskedPhone('abc'));
  });

  test('differs between e-mails (not one constant that would give unknown e-mails away)', () => {
    const decoys = new Set(Array.from({ length: 50 }, (_, i) => decoyFor(`nobody${i}@example.com`)));
    expect(decoys.size).toBeGreaterThan(40);
  });

  test('its last four digits spread over the whole range, as real numbers do', () => {
    const lastFour = Array.from({ length: 400 }, (_, i) => Number(decoyFor(`user${i}@example.com`).slice(-4)));
    expect(Math.min(...lastFour)).toBeLessThan(1000);
    expect(Math.max(...lastFour)).toBeGreaterThan(9000);
  });
});
