/** Developers (sellers), their API keys and their signing keys. */
export interface Developer {
  id: string;
  email: string;
  name: string;
  createdAt: number;
}

/** A new seller account as sign-up answers it, with its two keys. */
export interface SignUpResult extends Developer {
  /** The secret key (sk_), shown once: only its digest is stored. */
  secretKey: string;
  /** The same secret key under its first name, kept so integrations written against it keep working. */
  apiKey: string;
  publishableKey: string;
}

/** `secret` (sk_) keys may do everything; `publishable` (pk_) keys only validate and start checkouts. */
export const API_KEY_SCOPES = ['secret', 'publishable'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export interface ApiKeyRecord {
  id: string;
  developerId: string;
  scope: ApiKeyScope;
  /** SHA-256 of the key; the key itself is shown once and never stored. */
  keyHash: string;
  createdAt: number;
  revokedAt: number | null;
  /** When a request last authenticated with it, to the minute (written at most once a minute); null = never. */
  lastUsedAt: number | null;
}

/** A key's lastUsedAt is written again only once this much older than the request: one write a minute per key at most. */
export const API_KEY_LAST_USED_RESOLUTION_MS = 60_000;

export const API_KEY_PREFIX: Record<ApiKeyScope, string> = { secret: 'sk_', publishable: 'pk_' };

export function scopeOfKey(key: string): ApiKeyScope | null {
  if (key.startsWith('sk_')) return 'secret';
  if (key.startsWith('pk_')) return 'publishable';
  return null;
}

export interface SigningKey {
  kid: string;
  developerId: string;
  /** Raw 32-byte Ed25519 public key, base64url. */
  publicKey: string;
  /** The private key sealed with MASTER_KEY (AES-256-GCM); opaque to the domain. */
  sealedPrivateKey: string;
  createdAt: number;
  /**
   * The newest key made (the head of the chain, the one that endorses the next). It signs from
   * `notBefore` on; until then the key before it does (docs/key-rotation.md).
   */
  active: boolean;
  /** When the key starts signing: a rotation publishes it ahead (ROTATION_LEAD_MS by default). */
  notBefore: number;
  /** The key before it vouching for this one (an endorsement JWS); null for a seller's first key. */
  endorsement: string | null;
  /** Retired as compromised at this time: nothing it signs from then on is to be believed. */
  compromisedAt: number | null;
  /** The successor's signed statement of that retirement (a retirement JWS); null unless compromised. */
  retirement: string | null;
}

/** The longest address SMTP can deliver to (RFC 5321's path limit, less its brackets). */
export const EMAIL_MAX_LENGTH = 254;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string | null {
  const trimmed = email.trim().toLowerCase();
  return trimmed.length <= EMAIL_MAX_LENGTH && EMAIL.test(trimmed) ? trimmed : null;
}
