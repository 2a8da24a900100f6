import { DomainError, RateLimitedError } from '../../domain/errors.ts';
import {
  attemptAllowed,
  challengeLive,
  judgeOtp,
  lockedFor,
  OTP_LIMITS,
  type OtpChallenge,
  type OtpScope,
} from '../../domain/otp-challenge.ts';
import type { Deps } from '../../ports/deps.ts';

export type CheckDeps = Pick<Deps, 'clock' | 'otps' | 'otpCodes'>;

const INVALID = () => new DomainError('otp_invalid', 'The code is not right.');

/** 429 rate_limited while a failure key is locked (20 attempts without a success lock it for an hour). */
export function lockedError(seconds: number): RateLimitedError {
  return new RateLimitedError('rate_limited', `Too many wrong codes: locked for ${Math.ceil(seconds / 60)} minutes.`, seconds);
}

/**
 * Checks a code against its challenge, in this order:
 * 1. the challenge must exist, be of this scope and subject, unused and unexpired; a guess at any
 *    other challenge is refused without counting anywhere (made-up ids cannot lock a customer);
 * 2. the attempt counts under `lockKey` (the customer's sign-ins, purchase codes or phone codes),
 *    atomically in the store, and is refused with 429 while the key is locked;
 * 3. the attempt counts on the challenge, atomically, and the sixth is refused (429);
 * 4. only then is the code compared; the right one lifts the key's count.
 * Every attempt is counted before any code is compared, so concurrent guesses cannot outrun the
 * limits. Does not use the challenge up: the caller consumes it once the action it guards succeeded.
 */
export async function checkCode(
  deps: CheckDeps,
  input: { otpId: string; code: string; scope: OtpScope; subject?: string; lockKey: string | ((challenge: OtpChallenge) => string) },
): Promise<OtpChallenge> {
  const challenge = await deps.otps.findById(input.otpId);
  // No subject given: the challenge's own names who it is for (console codes are asked for by id alone).
  if (!challenge || challenge.scope !== input.scope || (input.subject !== undefined && challenge.subject !== input.subject)) throw INVALID();
  const lockKey = typeof input.lockKey === 'string' ? input.lockKey : input.lockKey(challenge);
  const now = deps.clock.now();
  const live = challengeLive(challenge, now);
  if (live === 'used') throw INVALID();
  if (live === 'expired') throw expired();
  const failures = await deps.otps.countTowardsLock(lockKey, now, OTP_LIMITS.failuresBeforeLock, OTP_LIMITS.lockMs);
  if (!attemptAllowed(failures, OTP_LIMITS.failuresBeforeLock)) throw lockedError(lockedFor(failures, now));
  const attempts = await deps.otps.recordAttempt(challenge.id);
  // Past its budget the code is not even compared: nothing about it can be learnt from a 6th try.
  if (attempts > OTP_LIMITS.maxAttempts) throw attemptsExceeded(challenge, now);
  const matches = /^\d{6}$/.test(input.code) && deps.otpCodes.equal(deps.otpCodes.digest(challenge.id, input.code), challenge.codeDigest);
  switch (judgeOtp(challenge, attempts, matches, now)) {
    case 'ok':
      await deps.otps.resetLoginFailures(lockKey, now);
      return challenge;
    case 'expired':
      throw expired();
    case 'attempts_exceeded':
      throw attemptsExceeded(challenge, now);
    case 'invalid':
      throw INVALID();
  }
}

const expired = () => new DomainError('otp_expired', 'The code has expired: ask for a new one.');

function attemptsExceeded(challenge: OtpChallenge, now: number): RateLimitedError {
  const retryAfter = Math.max(1, Math.ceil((challenge.expiresAt - now) / 1000));
  return new RateLimitedError('otp_attempts_exceeded', `Too many wrong codes (${OTP_LIMITS.maxAttempts}): ask for a new one.`, retryAfter);
}

/** Uses the challenge up, once: a concurrent verify that lost the race hears otp_invalid. */
export async function consumeCode(deps: CheckDeps, challenge: OtpChallenge): Promise<void> {
  if (!(await deps.otps.consume(challenge.id, deps.clock.now()))) throw INVALID();
}

/** Seconds the key is still locked for (0 when it is not): a locked key is sent no new codes. */
export async function lockedSeconds(deps: Pick<Deps, 'clock' | 'otps'>, lockKey: string): Promise<number> {
  return lockedFor(await deps.otps.loginFailures(lockKey), deps.clock.now());
}
