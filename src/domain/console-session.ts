/** The seller console's sign-in: sessions, passkeys and their challenges (docs/console-sign-in.md). */

export const CONSOLE_SESSION_PREFIX = 'cs_';
/** The cookie: `__Host-` makes browsers keep it only Secure, host-only and on Path=/. */
export const CONSOLE_COOKIE = '__Host-licensing_console';

export const CONSOLE_SESSION_LIMITS = {
  /** From sign-in, whatever the use. */
  lifetimeMs: 8 * 60 * 60_000,
  /** Without use. */
  idleMs: 60 * 60_000,
  /** Use is written at most this often: a session read many times a second costs no write each time. */
  touchEveryMs: 60_000,
  userAgentMax: 200,
} as const;

export const SIGN_IN_METHODS = ['email', 'passkey'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

export interface ConsoleSession {
  id: string;
  developerId: string;
  /** Digest of the cookie's token: the token itself is only in the browser. */
  tokenHash: string;
  createdAt: number;
  lastUsedAt: number;
  expiresAt: number;
  revokedAt: number | null;
  userAgent: string;
  clientAddress: string;
  how: SignInMethod;
}

/** Live: not revoked, not past its 8 hours, used within the last hour. */
export function sessionUsable(session: Pick<ConsoleSession, 'expiresAt' | 'revokedAt' | 'lastUsedAt'>, now: number): boolean {
  return session.revokedAt === null && now < session.expiresAt && now - session.lastUsedAt < CONSOLE_SESSION_LIMITS.idleMs;
}

export const PASSKEY_LIMITS = {
  /** A registration or sign-in ceremony's challenge: single use, this long. */
  challengeLifetimeMs: 5 * 60_000,
  nameMax: 100,
  /** Passkeys per seller: bounds the rows one session can make. */
  perDeveloper: 20,
  /** Registration ceremonies started per seller an hour: each leaves a challenge row until the sweep. */
  registrationsPerHour: 30,
} as const;

export interface Passkey {
  id: string;
  developerId: string;
  /** The credential id, base64url, as the authenticator names it. */
  credentialId: string;
  /** COSE public key, base64url. */
  publicKey: string;
  /** The signature counter last seen: it must go up (0 forever for authenticators that keep none). */
  counter: number;
  transports: string[];
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export const CHALLENGE_PURPOSES = ['registration', 'authentication'] as const;
export type ChallengePurpose = (typeof CHALLENGE_PURPOSES)[number];

export interface WebAuthnChallenge {
  id: string;
  purpose: ChallengePurpose;
  /** The seller registering a passkey; null for a sign-in (nobody is known yet). */
  developerId: string | null;
  /** base64url, as the options carried it. */
  challenge: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

/**
 * Whether a verified assertion's counter may be taken: it must go past the stored one, except for
 * an authenticator that keeps no counter (both 0). A counter that stays or goes back means two
 * copies of the key are in use.
 */
export function counterAccepted(stored: number, asserted: number): boolean {
  return (stored === 0 && asserted === 0) || asserted > stored;
}
