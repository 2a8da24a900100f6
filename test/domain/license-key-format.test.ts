import { describe, expect, test } from 'bun:test';
import { encodeBase64url, utf8 } from '../../src/domain/base64url.ts';
import { assembleLicenseKey, parseLicenseKey, signingInputFor, verifyLicenseKey } from '../../src/domain/license-key.ts';
import { CLAIMS, craft, ed25519, jsonSegment } from './license-key-fixture.ts';

const KID = 'kid_current';
const key = ed25519();
const verifierFor = (kid: string) => (kid === KID ? key.verifier : undefined);
const HEADER = { alg: 'EdDSA', kid: KID, typ: 'JWT' };
const INVALID_FORMAT = { ok: false, reason: 'invalid_format' } as const;

function issue(): string {
  const input = signingInputFor(KID, CLAIMS);
  return assembleLicenseKey(input, key.signBytes(utf8.encode(input)));
}

describe('garbage is invalid_format', () => {
  test.each([
    ['an empty string', ''],
    ['a word', 'license'],
    ['dots only', '..'],
    ['three empty-looking segments', 'a.b.c'],
    ['an API key', 'sk_0123456789abcdef'],
    ['a UUID', '8d3f6a5e-3b8e-4a63-9c9b-1f0f7f0b8c2a'],
    ['padded base64 segments', 'eyJhbGciOiJFZERTQSJ9.e30=.AAAA'],
  ])('%s', (_name, text) => {
    expect(verifyLicenseKey(text, verifierFor)).toEqual(INVALID_FORMAT);
  });

  test.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['an object', { licenseKey: 'x' }],
    ['an array', ['a', 'b', 'c']],
  ])('a non-string (%s) is invalid_format', (_name, value) => {
    expect(verifyLicenseKey(value, verifierFor)).toEqual(INVALID_FORMAT);
  });

  test('a key longer than 8192 characters is invalid_format', () => {
    const [h, p, s] = issue().split('.');
    expect(verifyLicenseKey(`${h}.${p}${'A'.repeat(8192)}.${s}`, verifierFor)).toEqual(INVALID_FORMAT);
  });
});

describe('segment count', () => {
  test('two segments (signature dropped) is invalid_format', () => {
    const [h, p] = issue().split('.');
    expect(verifyLicenseKey(`${h}.${p}`, verifierFor)).toEqual(INVALID_FORMAT);
  });

  test('four segments (something appended) is invalid_format', () => {
    expect(verifyLicenseKey(`${issue()}.AAAA`, verifierFor)).toEqual(INVALID_FORMAT);
  });

  test('five segments (JWE shape) is invalid_format', () => {
    expect(verifyLicenseKey('a.b.c.d.e', verifierFor)).toEqual(INVALID_FORMAT);
  });
});

describe('a broken segment is invalid_format', () => {
  test('a signature segment that is not canonical base64url', () => {
    const [h, p, s] = issue().split('.');
    expect(verifyLicenseKey(`${h}.${p}.${s}==`, verifierFor)).toEqual(INVALID_FORMAT);
    expect(verifyLicenseKey(`${h}.${p}.${s!.replace(/-/g, '+')}+`, verifierFor)).toEqual(INVALID_FORMAT);
  });

  test('a payload that is not JSON', () => {
    const [h, , s] = issue().split('.');
    expect(verifyLicenseKey(`${h}.${encodeBase64url(utf8.encode('{not json'))}.${s}`, verifierFor)).toEqual(INVALID_FORMAT);
  });

  test('a payload that is not UTF-8', () => {
    const [h, , s] = issue().split('.');
    expect(verifyLicenseKey(`${h}.${encodeBase64url(new Uint8Array([0xff, 0xfe]))}.${s}`, verifierFor)).toEqual(INVALID_FORMAT);
  });

  test.each([
    ['JSON null', null],
    ['an array', [HEADER]],
    ['no kid', { alg: 'EdDSA' }],
    ['an empty kid', { alg: 'EdDSA', kid: '' }],
    ['a numeric kid', { alg: 'EdDSA', kid: 7 }],
    ['no alg', { kid: KID }],
    ['a numeric alg', { alg: 1, kid: KID }],
  ])('a header that is %s, even when really signed', (_name, header) => {
    expect(verifyLicenseKey(craft(key.signBytes, header, CLAIMS), verifierFor)).toEqual(INVALID_FORMAT);
  });
});

describe('claims with wrong types are invalid_format, even when really signed', () => {
  test('the untouched claims pass, so each case below fails for its one change', () => {
    expect(verifyLicenseKey(craft(key.signBytes, HEADER, CLAIMS), verifierFor).ok).toBe(true);
  });

  const drop = (field: keyof typeof CLAIMS) => Object.fromEntries(Object.entries(CLAIMS).filter(([k]) => k !== field));

  test.each([
    ['id as a number', { ...CLAIMS, id: 1 }],
    ['productId missing', drop('productId')],
    ['sub as null', { ...CLAIMS, sub: null }],
    ['iss missing', drop('iss')],
    ['features as a string', { ...CLAIMS, features: 'pro' }],
    ['features holding a number', { ...CLAIMS, features: ['pro', 1] }],
    ['issuedAt as a string', { ...CLAIMS, issuedAt: String(CLAIMS.issuedAt) }],
    ['issuedAt fractional', { ...CLAIMS, issuedAt: 1.5 }],
    ['issuedAt beyond safe integers', { ...CLAIMS, issuedAt: 2 ** 60 }],
    ['expiresAt missing (perpetual must be an explicit null)', drop('expiresAt')],
    ['expiresAt as a string', { ...CLAIMS, expiresAt: '2027-01-01' }],
    ['the claims as an array', [CLAIMS]],
    ['the claims as a string', 'lic_1'],
  ])('%s', (_name, claims) => {
    expect(verifyLicenseKey(craft(key.signBytes, HEADER, claims), verifierFor)).toEqual(INVALID_FORMAT);
  });

  test('a format problem is reported before any signature problem', () => {
    const forged = `${jsonSegment({ alg: 'HS256', kid: KID })}.${jsonSegment({ id: 1 })}.${encodeBase64url(new Uint8Array(3))}`;
    expect(verifyLicenseKey(forged, verifierFor)).toEqual(INVALID_FORMAT);
    expect(parseLicenseKey(forged)).toEqual(INVALID_FORMAT);
  });
});
