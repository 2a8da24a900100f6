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
 * Texts per phone number and per customer, across sign-in, purchase and phone-change codes, on top
 * of the per-e-mail (or per-purchase) limit above: a fresh purchase per code cannot pump texts to one
 * phone. Each window is a fixed window of the RateLimiter port; every limit must hold.
 */
export const SMS_LIMITS = [
  { sends: 5, windowMs: 15 * 60_000 },
  { sends: 20, windowMs: 24 * 60 * 60_000 },
] as const;

/**
 * A login code only logs in; a purchase code only confirms its own purchase; a phone code only
 * confirms the new phone number it was sent to; a trial code only confirms its own trial request;
 * a console code only signs a seller in to the console.
 */
export const OTP_SCOPES = ['login', 'purchase', 'phone', 'trial', 'console'] as const;
export type OtpScope = (typeof OTP_SCOPES)[number];

/**
 * Scopes whose code proves an address, not a customer: the buyer of a trial may have no customer
 * yet, so such a challenge passes without one (for every other scope no customer means a decoy). A
 * console code proves a seller's address: its subject names the seller (a decoy's names none).
 */
export const ADDRESS_SCOPES: readonly OtpScope[] = ['trial', 'console'];

export interface OtpChallenge {
  id: string;
  scope: OtpScope;
  /** What the code is for: the normalized e-mail (login), the purchase id (purchase), `<customerId>:<newPhone>` (phone), the trial request id (trial), or the developer id (console; a decoy's keyed e-mail digest). */
  subject: string;
  /**
   * null for an e-mail with no customer: the challenge exists so the answer looks the same, but no
   * code can pass. A trial code (ADDRESS_SCOPES) has none either and does pass: it proves the address.
   */
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
  challenge: Pick<OtpChallenge, 'expiresAt' | 'usedAt' | 'customerId'> & { scope?: OtpScope },
  attemptsIncludingThis: number,
  codeMatches: boolean,
  now: number,
): OtpVerdict {
  if (challenge.usedAt !== null) return 'invalid';
  if (now >= challenge.expiresAt) return 'expired';
  if (attemptsIncludingThis > OTP_LIMITS.maxAttempts) return 'attempts_exceeded';
  const owned = challenge.customerId !== null || (challenge.scope !== undefined && ADDRESS_SCOPES.includes(challenge.scope));
  return codeMatches && owned ? 'ok' : 'invalid';
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

/**
 * Attempts under one failure key (a customer's logins, purchase codes or phone-change codes) since
 * its last success or the end of its last lock. Every attempt at a live challenge counts before its
 * code is compared; the one that reaches 20 locks the key for an hour; a new code does not reset
 * the count, a success does.
 */
export interface LoginFailures {
  /** The failure key: a customer id, `purchase:<id>`, `phone:<id>`, or `email:<digest>` for an unknown e-mail. */
  customerId: string;
  consecutive: number;
  lockedUntil: number | null;
}

/**
 * The state after one more attempt under a key, `now`: a lock that has run out starts the count
 * again at 1; otherwise the count goes up by one, also while locked (a lock's end never moves),
 * and the attempt that reaches `lockAt` locks until `now + lockMs`. The stores apply this same rule
 * atomically (one upsert).
 */
export function nextFailures(current: LoginFailures | null, key: string, now: number, lockAt: number, lockMs: number): LoginFailures {
  const lockRanOut = current?.lockedUntil != null && now >= current.lockedUntil;
  const consecutive = current && !lockRanOut ? current.consecutive + 1 : 1;
  const lockedUntil = current?.lockedUntil != null && !lockRanOut ? current.lockedUntil : consecutive >= lockAt ? now + lockMs : null;
  return { customerId: key, consecutive, lockedUntil };
}

/**
 * Whether the attempt that produced this state may be judged: attempts 1…lockAt are (the one that
 * locks included); every later one arrived while locked and is refused without looking at its code.
 */
export function attemptAllowed(after: LoginFailures, lockAt: number): boolean {
  return after.consecutive <= lockAt;
}

/** A challenge that can still take a guess: not used up and not expired. Guesses at any other do not count. */
export function challengeLive(challenge: Pick<OtpChallenge, 'expiresAt' | 'usedAt'>, now: number): 'live' | 'used' | 'expired' {
  if (challenge.usedAt !== null) return 'used';
  return now >= challenge.expiresAt ? 'expired' : 'live';
}

export function lockedFor(failures: LoginFailures | null, now: number): number {
  if (!failures?.lockedUntil || now >= failures.lockedUntil) return 0;
  return Math.ceil((failures.lockedUntil - now) / 1000);
}
