import { describe, expect, test } from 'bun:test';
import { decideBinding } from '../../src/domain/machine-binding.ts';

describe('machine binding', () => {
  test('an unbound license binds to the first fingerprint it sees', () => {
    expect(decideBinding(null, 'fp-a')).toEqual({ kind: 'bind', fingerprint: 'fp-a' });
  });

  test('a license bound to a fingerprint matches that same fingerprint', () => {
    expect(decideBinding('fp-a', 'fp-a')).toEqual({ kind: 'matches' });
  });

  test('a second machine gets a mismatch', () => {
    expect(decideBinding('fp-a', 'fp-b')).toEqual({ kind: 'mismatch' });
  });

  test('fingerprints compare exactly: case and whitespace matter', () => {
    expect(decideBinding('abc', 'ABC')).toEqual({ kind: 'mismatch' });
    expect(decideBinding('abc', 'abc ')).toEqual({ kind: 'mismatch' });
  });

  test('after unbinding (bound = null) the next fingerprint binds, even a different one', () => {
    expect(decideBinding(null, 'fp-b')).toEqual({ kind: 'bind', fingerprint: 'fp-b' });
  });
});
