import { describe, expect, test } from 'bun:test';
import { Flags, parseArgs } from '../../src/cli/args.ts';
import { UsageError } from '../../src/cli/errors.ts';
import { normalizeApiUrl } from '../../src/cli/http.ts';
import { table } from '../../src/cli/output.ts';
import { expiresAt } from '../../src/cli/seller-licenses.ts';
import { toMinorUnits } from '../../src/cli/seller-products.ts';
import { closest, editDistance } from '../../src/cli/suggest.ts';

describe('argument parsing', () => {
  test('subcommands, --flag value, --flag=value, boolean flags and -h, in any order', () => {
    const parsed = parseArgs(['--json', 'seller', 'products', 'create', '--name', 'Pro', '--price=19.99', '-h']);

    expect(parsed.positionals).toEqual(['seller', 'products', 'create']);
    expect(Object.fromEntries(parsed.flags)).toEqual({ json: true, name: 'Pro', price: '19.99', help: true });
  });

  test('-y is --yes', () => {
    expect(Object.fromEntries(parseArgs(['seller', 'licenses', 'revoke', 'lic_1', '-y']).flags)).toEqual({ yes: true });
  });

  test('after -- everything is a positional, even what looks like a flag', () => {
    expect(parseArgs(['activate', '--', '--weird-key']).positionals).toEqual(['activate', '--weird-key']);
  });

  test('a value flag at the end, or followed by another flag, is missing its value', () => {
    expect(() => parseArgs(['signup', '--email'])).toThrow(UsageError);
    expect(() => parseArgs(['signup', '--email', '--name', 'x'])).toThrow('--email needs a value');
  });

  test('a boolean flag given a value, and single-dash options other than -h, are refused', () => {
    expect(() => parseArgs(['status', '--json=yes'])).toThrow('--json takes no value');
    expect(() => parseArgs(['status', '-v'])).toThrow('unknown option -v');
  });

  test('a command refuses flags it does not know, but accepts the global ones', () => {
    const flags = parseArgs(['--config', 'c.json', '--json', '--email', 'a@b.c']).flags;

    expect(() => new Flags(flags, ['email'])).not.toThrow();
    expect(() => new Flags(flags, ['name'])).toThrow('unknown option --email');
  });

  test('comma lists drop blanks; booleans read true/false/yes/no', () => {
    const flags = new Flags(parseArgs(['--features', ' a, ,b ', '--active', 'No']).flags, ['features', 'active']);

    expect(flags.list('features')).toEqual(['a', 'b']);
    expect(flags.boolean('active')).toBe(false);
  });
});

describe('values', () => {
  test.each([
    ['19.99', 'usd', 1999],
    ['19.9', 'usd', 1990],
    ['19', 'usd', 1900],
    ['0.07', 'eur', 7],
    ['500', 'jpy', 500],
    ['1.234', 'kwd', 1234],
  ])('price %s %s is %d minor units', (price, currency, minor) => {
    expect(toMinorUnits(price, currency)).toBe(minor);
  });

  test.each([['19.999', 'usd'], ['1.5', 'jpy'], ['-1', 'usd'], ['1e3', 'usd'], ['', 'usd'], ['12,50', 'eur']])(
    'price %s %s is a usage error',
    (price, currency) => {
      expect(() => toMinorUnits(price, currency)).toThrow(UsageError);
    },
  );

  test.each([
    ['http://localhost:3000', 'http://localhost:3000/v1'],
    ['http://localhost:3000/', 'http://localhost:3000/v1'],
    ['http://localhost:3000/v1/', 'http://localhost:3000/v1'],
    ['https://api.example.com/licensing', 'https://api.example.com/licensing/v1'],
  ])('API URL %s → %s', (raw, normalized) => {
    expect(normalizeApiUrl(raw)).toBe(normalized);
  });

  test.each([['ftp://example.com/v1'], ['/licensing'], ['not a url']])('API URL %s is a usage error', (raw) => {
    expect(() => normalizeApiUrl(raw)).toThrow(UsageError);
  });

  test('expiry dates: ISO dates and date-times, or never; anything else is a usage error', () => {
    expect(expiresAt('2027-01-31')).toBe(Date.UTC(2027, 0, 31));
    expect(expiresAt('2027-01-31T12:00:00Z')).toBe(Date.UTC(2027, 0, 31, 12));
    expect(expiresAt('never')).toBeNull();
    expect(() => expiresAt('next week')).toThrow(UsageError);
  });

  test('tables align every column but the last and leave no trailing blanks', () => {
    expect(table(['ID', 'NAME'], [['p_1', 'Pro'], ['p_22', '']])).toBe('ID    NAME\np_1   Pro\np_22');
  });
});

describe('suggestions', () => {
  test('edit distance counts insertions, deletions and substitutions', () => {
    expect([editDistance('status', 'status'), editDistance('stauts', 'status'), editDistance('', 'buy'), editDistance('kitten', 'sitting')]).toEqual([0, 2, 3, 3]);
  });

  test('the nearest command wins, the longer one among equals; far-off words get nothing', () => {
    const commands = ['status', 'seller products', 'seller products list', 'seller products create'];
    expect(closest(['stats'], commands)).toEqual(['status']);
    expect(closest(['seller', 'prodcts', 'list'], commands)).toEqual(['seller products list']);
    expect(closest(['frobnicate'], commands)).toEqual([]);
  });
});
