import { describe, expect, test } from 'bun:test';
import { judgeOtp, lockedFor, OTP_LIMITS, sendRetryAfter, type LoginFailures } from '../../src/domain/otp-challenge.ts';

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

/** A fresh challenge of a real customer, created at T0. */
const aChallenge = (overrides: Partial<{ expiresAt: number; usedAt: number | null; customerId: string | null }> = {}) => ({
  expiresAt: T0 + OTP_LIMITS.lifetimeMs,
  usedAt: null,
  customerId: 'cus_1',
  ...overrides,
});

describe('OTP limits are CONTRACT.md’s', () => {
  test('6 digits, 300 s, 5 attempts, 3 sends per 15 minutes, 20 failures lock for an hour', () => {
    expect(OTP_LIMITS).toEqual({
      digits: 6,
      lifetimeMs: 300_000,
      maxAttempts: 5,
      sendsPerWindow: 3,
      sendWindowMs: 15 * MINUTE,
      failuresBeforeLock: 20,
      lockMs: 60 * MINUTE,
    });
  });
});

describe('judgeOtp', () => {
  test('the right code on a fresh challenge is ok', () => {
    expect(judgeOtp(aChallenge(), 1, true, T0)).toBe('ok');
  });

  test('a wrong code is invalid', () => {
    expect(judgeOtp(aChallenge(), 1, false, T0)).toBe('invalid');
  });

  test('the code is ok up to 299 999 ms and expired at exactly 300 s', () => {
    expect(judgeOtp(aChallenge(), 1, true, T0 + 299_999)).toBe('ok');
    expect(judgeOtp(aChallenge(), 1, true, T0 + 300_000)).toBe('expired');
    expect(judgeOtp(aChallenge(), 1, true, T0 + 10 * MINUTE)).toBe('expired');
  });

  test('the fifth attempt may still pass; the sixth is attempts_exceeded even with the right code', () => {
    expect(judgeOtp(aChallenge(), 5, true, T0)).toBe('ok');
    expect(judgeOtp(aChallenge(), 6, true, T0)).toBe('attempts_exceeded');
    expect(judgeOtp(aChallenge(), 6, false, T0)).toBe('attempts_exceeded');
  });

  test('a used challenge is invalid before anything else: even expired, over budget or with the right code', () => {
    const used = aChallenge({ usedAt: T0 + 1 });
    expect(judgeOtp(used, 1, true, T0 + 2)).toBe('invalid');
    expect(judgeOtp(used, 9, true, T0 + 2)).toBe('invalid');
    expect(judgeOtp(used, 1, true, T0 + 10 * MINUTE)).toBe('invalid');
  });

  test('expiry comes before the attempt budget', () => {
    expect(judgeOtp(aChallenge(), 6, true, T0 + 300_000)).toBe('expired');
  });

  test('the attempt budget comes before the code', () => {
    expect(judgeOtp(aChallenge(), 6, false, T0)).toBe('attempts_exceeded');
  });

  test('a challenge of an unknown e-mail (no customer) never passes, even with a “matching” code', () => {
    expect(judgeOtp(aChallenge({ customerId: null }), 1, true, T0)).toBe('invalid');
  });

  test('a challenge of an unknown e-mail still expires and runs out of attempts like a real one', () => {
    expect(judgeOtp(aChallenge({ customerId: null }), 1, false, T0 + 300_000)).toBe('expired');
    expect(judgeOtp(aChallenge({ customerId: null }), 6, false, T0)).toBe('attempts_exceeded');
  });
});

describe('sendRetryAfter', () => {
  test('no sends, one or two sends in the window: a code may be sent now (0)', () => {
    expect(sendRetryAfter([], T0)).toBe(0);
    expect(sendRetryAfter([T0], T0)).toBe(0);
    expect(sendRetryAfter([T0, T0 + 1], T0 + 1)).toBe(0);
  });

  test('three sends at once: wait the whole 15 minutes (900 s)', () => {
    expect(sendRetryAfter([T0, T0, T0], T0)).toBe(900);
  });

  test('the wait runs from the oldest of the last three sends', () => {
    const sends = [T0, T0 + 5 * MINUTE, T0 + 10 * MINUTE];
    expect(sendRetryAfter(sends, T0 + 10 * MINUTE)).toBe(300);
    expect(sendRetryAfter(sends, T0 + 14 * MINUTE)).toBe(60);
  });

  test('exactly 15 minutes after the oldest send, it no longer counts', () => {
    const sends = [T0, T0 + MINUTE, T0 + 2 * MINUTE];
    expect(sendRetryAfter(sends, T0 + 15 * MINUTE - 1)).toBe(1);
    expect(sendRetryAfter(sends, T0 + 15 * MINUTE)).toBe(0);
  });

  test('sends older than the window are ignored, in any order', () => {
    const sends = [T0 + 20 * MINUTE, T0, T0 + 21 * MINUTE];
    expect(sendRetryAfter(sends, T0 + 22 * MINUTE)).toBe(0);
  });

  test('more than three sends in the window (a race): the wait runs from the third newest', () => {
    const sends = [T0, T0 + MINUTE, T0 + 2 * MINUTE, T0 + 3 * MINUTE];
    expect(sendRetryAfter(sends, T0 + 3 * MINUTE)).toBe(13 * 60);
  });

  test('a wait of less than a second is rounded up to 1 s, never 0', () => {
    expect(sendRetryAfter([T0, T0, T0], T0 + 15 * MINUTE - 1)).toBe(1);
  });
});

describe('lockedFor', () => {
  const failures = (lockedUntil: number | null, consecutive = 20): LoginFailures => ({ customerId: 'cus_1', consecutive, lockedUntil });

  test('no record, or failures without a lock: not locked (0)', () => {
    expect(lockedFor(null, T0)).toBe(0);
    expect(lockedFor(failures(null, 19), T0)).toBe(0);
  });

  test('a lock an hour from now: 3600 s', () => {
    expect(lockedFor(failures(T0 + 60 * MINUTE), T0)).toBe(3600);
  });

  test('the seconds left are rounded up', () => {
    expect(lockedFor(failures(T0 + 1_500), T0)).toBe(2);
    expect(lockedFor(failures(T0 + 1), T0)).toBe(1);
  });

  test('at the end of the lock, and after it: 0', () => {
    expect(lockedFor(failures(T0 + 60 * MINUTE), T0 + 60 * MINUTE)).toBe(0);
    expect(lockedFor(failures(T0 + 60 * MINUTE), T0 + 61 * MINUTE)).toBe(0);
  });
});
