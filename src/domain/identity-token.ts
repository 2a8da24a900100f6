/** Identity tokens: what a customer holds after an SMS login, for terminal purchases. */
export const IDENTITY_TOKEN_LIFETIME_MS = 30 * 86_400_000;
export const IDENTITY_TOKEN_PREFIX = 'idt_';

export interface IdentityToken {
  /** Digest of the token: the token itself is shown once, at login. */
  tokenHash: string;
  customerId: string;
  /** The device it was issued to (the deviceFingerprint given at login). */
  deviceFingerprint: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

export function tokenUsable(token: Pick<IdentityToken, 'expiresAt' | 'revokedAt'>, now: number): boolean {
  return token.revokedAt === null && now < token.expiresAt;
}
