import { describe, expect, test } from 'bun:test';
import { VALIDATION_REASONS } from '../../src/domain/license.ts';
import { judgeValidation, VALIDATION_PRECEDENCE, type LicenseUnderValidation } from '../../src/domain/validation.ts';

const NOW = Date.UTC(2026, 0, 1);
const HERE = 'fp-here';
const ELSEWHERE = 'fp-elsewhere';

/** A license with maxMachines 1, bound to `machineFingerprint` (null = unbound), as before activations. */
function license(overrides: Partial<Omit<LicenseUnderValidation, 'activations'>> & { machineFingerprint?: string | null } = {}): LicenseUnderValidation {
  const { machineFingerprint = null, ...rest } = overrides;
  return { storedStatus: 'active', expiresAt: null, maxMachines: 1, activations: machineFingerprint ? [{ machineFingerprint }] : [], ...rest };
}

/** Everything that can be wrong with a license at once. */
const brokenEverywhere = license({ storedStatus: 'revoked', expiresAt: NOW - 1, machineFingerprint: ELSEWHERE });

describe('every validation reason', () => {
  test('a malformed key is invalid_format', () => {
    expect(judgeValidation('invalid_format', null, HERE, NOW)).toEqual({ valid: false, reason: 'invalid_format' });
  });

  test('a key whose signature fails is invalid_signature', () => {
    expect(judgeValidation('invalid_signature', null, HERE, NOW)).toEqual({ valid: false, reason: 'invalid_signature' });
  });

  test('a well-signed key with no stored license is not_found', () => {
    expect(judgeValidation(null, null, HERE, NOW)).toEqual({ valid: false, reason: 'not_found' });
  });

  test('a revoked license is revoked', () => {
    expect(judgeValidation(null, license({ storedStatus: 'revoked' }), HERE, NOW)).toEqual({ valid: false, reason: 'revoked' });
  });

  test('a license past its expiry is expired', () => {
    expect(judgeValidation(null, license({ expiresAt: NOW - 1 }), HERE, NOW)).toEqual({ valid: false, reason: 'expired' });
  });

  test('a license bound to another machine is machine_mismatch', () => {
    const verdict = judgeValidation(null, license({ machineFingerprint: ELSEWHERE }), HERE, NOW);
    expect(verdict).toEqual({ valid: false, reason: 'machine_mismatch' });
  });

  test('the verdict never says network_error: that is a client-side outcome', () => {
    const cases: [Parameters<typeof judgeValidation>[0], LicenseUnderValidation | null][] = [
      ['invalid_format', null],
      ['invalid_signature', brokenEverywhere],
      [null, null],
      [null, brokenEverywhere],
      [null, license()],
    ];
    for (const [problem, l] of cases) {
      const verdict = judgeValidation(problem, l, HERE, NOW);
      if (!verdict.valid) expect(verdict.reason).not.toBe('network_error');
    }
  });
});

describe(`precedence: ${VALIDATION_PRECEDENCE.join(' → ')}`, () => {
  test('names every reason once (the API reference lists its order)', () => {
    expect([...VALIDATION_PRECEDENCE].sort()).toEqual([...VALIDATION_REASONS].sort());
  });

  test('invalid_format wins over everything, even a license that is broken everywhere', () => {
    expect(judgeValidation('invalid_format', brokenEverywhere, HERE, NOW)).toEqual({ valid: false, reason: 'invalid_format' });
  });

  test('invalid_signature wins over revoked, expired and mismatched', () => {
    expect(judgeValidation('invalid_signature', brokenEverywhere, HERE, NOW)).toEqual({ valid: false, reason: 'invalid_signature' });
  });

  test('a license that is revoked AND expired AND mismatched says revoked', () => {
    expect(judgeValidation(null, brokenEverywhere, HERE, NOW)).toEqual({ valid: false, reason: 'revoked' });
  });

  test('a revoked license on its own machine that has not expired says revoked', () => {
    const l = license({ storedStatus: 'revoked', machineFingerprint: HERE, expiresAt: NOW + 1000 });
    expect(judgeValidation(null, l, HERE, NOW)).toEqual({ valid: false, reason: 'revoked' });
  });

  test('an expired AND mismatched license says expired', () => {
    const l = license({ expiresAt: NOW, machineFingerprint: ELSEWHERE });
    expect(judgeValidation(null, l, HERE, NOW)).toEqual({ valid: false, reason: 'expired' });
  });

  test('a mismatched license that is otherwise fine says machine_mismatch', () => {
    const l = license({ expiresAt: NOW + 1, machineFingerprint: ELSEWHERE });
    expect(judgeValidation(null, l, HERE, NOW)).toEqual({ valid: false, reason: 'machine_mismatch' });
  });
});

describe('binding is decided only when every check passes', () => {
  test('an unbound, active, unexpired license is valid and binds to the submitted fingerprint', () => {
    expect(judgeValidation(null, license(), HERE, NOW)).toEqual({ valid: true, binding: { kind: 'bind', fingerprint: HERE } });
  });

  test('a license bound to the same machine is valid and needs no new binding', () => {
    expect(judgeValidation(null, license({ machineFingerprint: HERE }), HERE, NOW)).toEqual({ valid: true, binding: { kind: 'matches' } });
  });

  test('an unbound license that is expired is not bound', () => {
    const verdict = judgeValidation(null, license({ expiresAt: NOW }), HERE, NOW);
    expect(verdict).toEqual({ valid: false, reason: 'expired' });
    expect('binding' in verdict).toBe(false);
  });

  test('an unbound license that is revoked is not bound', () => {
    const verdict = judgeValidation(null, license({ storedStatus: 'revoked' }), HERE, NOW);
    expect(verdict).toEqual({ valid: false, reason: 'revoked' });
  });

  test('a key problem never yields a binding, even for an unbound healthy license', () => {
    expect(judgeValidation('invalid_signature', license(), HERE, NOW)).toEqual({ valid: false, reason: 'invalid_signature' });
  });
});

describe('expiry at the exact millisecond', () => {
  const expiresAt = NOW + 60_000;

  test('valid one millisecond before expiresAt', () => {
    expect(judgeValidation(null, license({ expiresAt }), HERE, expiresAt - 1).valid).toBe(true);
  });

  test('expired at expiresAt itself', () => {
    expect(judgeValidation(null, license({ expiresAt }), HERE, expiresAt)).toEqual({ valid: false, reason: 'expired' });
  });

  test('a perpetual license is valid however far in the future', () => {
    expect(judgeValidation(null, license({ expiresAt: null }), HERE, Number.MAX_SAFE_INTEGER).valid).toBe(true);
  });
});

describe('scope.entitlements', () => {
  const entitled = (overrides = {}) => license({ features: ['Pro', 'export'], ...overrides });

  test('every asked code held (case-insensitively): valid, the binding decided as usual', () => {
    expect(judgeValidation(null, entitled(), HERE, NOW, ['pro', 'EXPORT'])).toEqual({ valid: true, binding: { kind: 'bind', fingerprint: HERE } });
    expect(judgeValidation(null, entitled(), HERE, NOW, [])).toMatchObject({ valid: true });
  });

  test('a lacking code: not_found with the missing codes as asked, before the machine is looked at', () => {
    expect(judgeValidation(null, entitled({ machineFingerprint: ELSEWHERE }), HERE, NOW, ['pro', 'Sync', 'sync'])).toEqual({ valid: false, reason: 'not_found', missingEntitlements: ['Sync'] });
  });

  test('after the key, the license found, revoked and expired', () => {
    expect(judgeValidation('invalid_signature', null, HERE, NOW, ['sync'])).toEqual({ valid: false, reason: 'invalid_signature' });
    expect(judgeValidation(null, null, HERE, NOW, ['sync'])).toEqual({ valid: false, reason: 'not_found' });
    expect(judgeValidation(null, entitled({ storedStatus: 'revoked' }), HERE, NOW, ['sync'])).toEqual({ valid: false, reason: 'revoked' });
    expect(judgeValidation(null, entitled({ expiresAt: NOW }), HERE, NOW, ['sync'])).toEqual({ valid: false, reason: 'expired' });
  });
});
