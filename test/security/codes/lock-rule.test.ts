import { describe, expect, test } from 'bun:test';
import { attemptAllowed, challengeLive, nextFailures, OTP_LIMITS, type LoginFailures } from '../../../src/domain/otp-challenge.ts';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = OTP_LIMITS.lockMs;
const KEY = 'cus_1';

/** `n` attempts in a row at `now`, from nothing. */
function attempts(n: number, now = T0): LoginFailures | null {
  let state: LoginFailures | null = null;
  for (let i = 0; i < n; i++) state = nextFailures(state, KEY, now, 20, HOUR);
  return state;
}

describe('nextFailures: every attempt counts before its code is compared', () => {
  test('attempts 1 to 19 count without a lock; the 20th locks for an hour and is still judged', () => {
    expect(attempts(19)).toEqual({ customerId: KEY, consecutive: 19, lockedUntil: null });
    expect(attempts(20)).toEqual({ customerId: KEY, consecutive: 20, lockedUntil: T0 + HOUR });
    expect(attemptAllowed(attempts(19)!, 20)).toBe(true);
    expect(attemptAllowed(attempts(20)!, 20)).toBe(true);
  });

  test('attempts during the lock are refused and never move its end', () => {
    const during = nextFailures(attempts(20), KEY, T0 + HOUR - 1, 20, HOUR);

    expect(during).toEqual({ customerId: KEY, consecutive: 21, lockedUntil: T0 + HOUR });
    expect(attemptAllowed(during, 20)).toBe(false);
  });

  test('at the end of the lock the count starts again at 1: one more wrong code does not lock for another hour', () => {
    const after = nextFailures(attempts(25), KEY, T0 + HOUR, 20, HOUR);

    expect(after).toEqual({ customerId: KEY, consecutive: 1, lockedUntil: null });
    expect(attemptAllowed(after, 20)).toBe(true);
  });

  test('after a reset (a success) the count starts from zero', () => {
    expect(nextFailures({ customerId: KEY, consecutive: 0, lockedUntil: null }, KEY, T0, 20, HOUR)).toEqual({ customerId: KEY, consecutive: 1, lockedUntil: null });
  });
});

describe('challengeLive: only guesses at a live challenge count', () => {
  const challenge = { expiresAt: T0 + OTP_LIMITS.lifetimeMs, usedAt: null };

  test('unused and before its expiry: live', () => {
    expect(challengeLive(challenge, T0 + OTP_LIMITS.lifetimeMs - 1)).toBe('live');
  });

  test('at its expiry: expired; once used: used, whatever the time', () => {
    expect(challengeLive(challenge, T0 + OTP_LIMITS.lifetimeMs)).toBe('expired');
    expect(challengeLive({ ...challenge, usedAt: T0 }, T0 + 10 * OTP_LIMITS.lifetimeMs)).toBe('used');
  });
});
