/** One-time codes sent by SMS: CONTRACT.md's limits, as pure rules over a fixed clock. */
export const OTP_LIMITS = {
  digits: 6,
  lifetimeMs: 300_000,
  maxAttempts: 5,
  sendsPerWindow: 3,
  sendWindowMs: 15 * 60_000,
  failuresBeforeLock: 20,
  lockMs: 60 * 60_000,
} as const;

/**
 * A login code only logs in; a purchase code only confirms its own purchase; a phone code only
 * confirms the new phone number it was sent to.
 */
export type OtpScope = 'login' | 'purchase' | 'phone';

export interface OtpChallenge {
  id: string;
  scope: OtpScope;
  /** What the code is for: the normalized e-mail (login) or the purchase id (purchase). */
  subject: string;
  /** null for an e-mail with no customer: the challenge exists so the answer looks the same, but no code can pass. */
  customerId: string | null;
  /** HMAC of the code: the code itself is never stored. */
  codeDigest: string;
  createdAt: number;
  expiresAt: number;
  attempts: number;
  usedAt: number | null;
}

export type OtpVerdict = 'ok' | 'invalid' | 'expired' | 'attempts_exceeded';

/**
 * The verdict for a code, in this order: a used or foreign challenge is invalid, then expiry, then
 * the attempt budget (the attempt being judged already counted), then the code itself.
 */
export function judgeOtp(
  challenge: Pick<OtpChallenge, 'expiresAt' | 'usedAt' | 'customerId'>,
  attemptsIncludingThis: number,
  codeMatches: boolean,
  now: number,
): OtpVerdict {
  if (challenge.usedAt !== null) return 'invalid';
  if (now >= challenge.expiresAt) return 'expired';
  if (attemptsIncludingThis > OTP_LIMITS.maxAttempts) return 'attempts_exceeded';
  return codeMatches && challenge.customerId !== null ? 'ok' : 'invalid';
}

/**
 * Seconds until another code may be sent for this subject, or 0 when one may be sent now.
 * `recentSends` are the creation times of its codes within the window.
 */
export function sendRetryAfter(recentSends: readonly number[], now: number): number {
  const inWindow = recentSends.filter((at) => now - at < OTP_LIMITS.sendWindowMs).sort((a, b) => a - b);
  if (inWindow.length < OTP_LIMITS.sendsPerWindow) return 0;
  const freesAt = inWindow[inWindow.length - OTP_LIMITS.sendsPerWindow]! + OTP_LIMITS.sendWindowMs;
  return Math.max(1, Math.ceil((freesAt - now) / 1000));
}

/** Login lock-out after 20 consecutive failures; a new code does not reset the count, a success does. */
export interface LoginFailures {
  customerId: string;
  consecutive: number;
  lockedUntil: number | null;
}

export function lockedFor(failures: LoginFailures | null, now: number): number {
  if (!failures?.lockedUntil || now >= failures.lockedUntil) return 0;
  return Math.ceil((failures.lockedUntil - now) / 1000);
}
