import { DomainError, RateLimitedError } from '../../domain/errors.ts';
import { judgeOtp, OTP_LIMITS, type OtpChallenge, type OtpScope } from '../../domain/otp-challenge.ts';
import type { Deps } from '../../ports/deps.ts';

export type CheckDeps = Pick<Deps, 'clock' | 'otps' | 'otpCodes'>;

const INVALID = () => new DomainError('otp_invalid', 'The code is not right.');

/**
 * Checks a code against its challenge: the scope and subject must match (a login code only logs
 * in; a purchase code only confirms its own purchase), then CONTRACT.md's limits. Does not use the
 * challenge up: the caller consumes it once the action it guards has succeeded.
 */
export async function checkCode(
  deps: CheckDeps,
  input: { otpId: string; code: string; scope: OtpScope; subject: string },
): Promise<OtpChallenge> {
  const challenge = await deps.otps.findById(input.otpId);
  if (!challenge || challenge.scope !== input.scope || challenge.subject !== input.subject) throw INVALID();
  const now = deps.clock.now();
  const matches = /^\d{6}$/.test(input.code) && deps.otpCodes.equal(deps.otpCodes.digest(challenge.id, input.code), challenge.codeDigest);
  // Only wrong codes spend the budget (atomically, so concurrent guesses cannot exceed it); the
  // right code after five wrong ones is still refused, and concurrent repeats of the right code
  // (a double-clicked confirm) do not use each other's tries up.
  const attempts = matches ? challenge.attempts + 1 : await deps.otps.recordAttempt(challenge.id);
  switch (judgeOtp(challenge, attempts, matches, now)) {
    case 'ok':
      return challenge;
    case 'expired':
      throw new DomainError('otp_expired', 'The code has expired: ask for a new one.');
    case 'attempts_exceeded': {
      const retryAfter = Math.max(1, Math.ceil((challenge.expiresAt - now) / 1000));
      throw new RateLimitedError('otp_attempts_exceeded', `Too many wrong codes (${OTP_LIMITS.maxAttempts}): ask for a new one.`, retryAfter);
    }
    case 'invalid':
      throw INVALID();
  }
}

/** Uses the challenge up, once: a concurrent verify that lost the race hears otp_invalid. */
export async function consumeCode(deps: CheckDeps, challenge: OtpChallenge): Promise<void> {
  if (!(await deps.otps.consume(challenge.id, deps.clock.now()))) throw INVALID();
}
