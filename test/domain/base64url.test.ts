import { describe, expect, test } from 'bun:test';
import { decodeBase64url, encodeBase64url, utf8 } from '../../src/domain/base64url.ts';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('base64url encoding (RFC 4648 §5, unpadded)', () => {
  test('RFC 4648 §10 vectors, without padding', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'Zg'],
      ['fo', 'Zm8'],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg'],
      ['fooba', 'Zm9vYmE'],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [text, encoded] of vectors) expect(encodeBase64url(utf8.encode(text))).toBe(encoded);
  });

  test('uses - and _ where base64 uses + and /', () => {
    expect(encodeBase64url(bytes(0xfb, 0xff))).toBe('-_8');
    expect(encodeBase64url(bytes(0xfb, 0xff, 0xbf))).toBe('-_-_');
  });

  test('agrees with Buffer for every length from 0 to 64 bytes', () => {
    for (let n = 0; n <= 64; n++) {
      const input = new Uint8Array(n).map((_, i) => (i * 37 + n * 11) & 0xff);
      expect(encodeBase64url(input)).toBe(Buffer.from(input).toString('base64url'));
    }
  });
});

describe('base64url round trips', () => {
  test.each([
    ['empty', bytes()],
    ['1 byte', bytes(0xff)],
    ['2 bytes', bytes(0x00, 0xff)],
    ['3 bytes', bytes(0xde, 0xad, 0xbe)],
    ['4 bytes', bytes(0, 0, 0, 1)],
    ['all 256 byte values', new Uint8Array(256).map((_, i) => i)],
  ])('%s survives encode → decode unchanged', (_name, input) => {
    expect(decodeBase64url(encodeBase64url(input))).toEqual(input);
  });

  test('the empty string decodes to zero bytes', () => {
    expect(decodeBase64url('')).toEqual(new Uint8Array(0));
  });
});

describe('base64url decoding rejects what is not canonical unpadded base64url', () => {
  test.each([
    ['padding', 'Zg=='],
    ['a single padding character', 'Zm8='],
    ['standard-base64 "+"', '+/8'],
    ['standard-base64 "/"', 'ab/c'],
    ['whitespace', 'Zm9v Yg'],
    ['a newline', 'Zm9v\nYg'],
    ['a non-ASCII character', 'Zm9vé'],
    ['an impossible length (4n + 1)', 'Zm9vY'],
    ['a lone character', 'A'],
    ['a dot', 'Zm.9'],
  ])('rejects %s', (_name, text) => {
    expect(decodeBase64url(text)).toBeNull();
  });

  test('rejects non-zero leftover bits, so no two strings decode to the same bytes', () => {
    expect(decodeBase64url('Zg')).toEqual(bytes(0x66));
    expect(decodeBase64url('Zh')).toBeNull();
    expect(decodeBase64url('Zm8')).toEqual(bytes(0x66, 0x6f));
    expect(decodeBase64url('Zm9')).toBeNull();
    expect(decodeBase64url('AB')).toBeNull();
  });
});

describe('utf8', () => {
  test('round trips text with multi-byte characters', () => {
    const text = 'licence – Lizenz – ライセンス – 🔑';
    expect(utf8.decode(utf8.encode(text))).toBe(text);
  });

  test('invalid UTF-8 decodes to null instead of replacement characters', () => {
    expect(utf8.decode(bytes(0xc3, 0x28))).toBeNull();
    expect(utf8.decode(bytes(0xff))).toBeNull();
  });
});
