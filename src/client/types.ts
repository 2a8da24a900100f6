/** The spec's client-side shapes (SPEC.md section 2), shared by the library and its callers. */

// The spec's status and reason sets are the domain's own: one definition for server and client.
import type { InvalidReason, LicenseStatus } from '../domain/license.ts';

export type { InvalidReason, LicenseStatus };

export interface LicenseDetails {
  id: string;
  productId: string;
  productName?: string;
  features: string[];
  status: LicenseStatus;
  issuedAt: number;
  expiresAt: number | null;
}

export interface LicenseCheckResult {
  valid: boolean;
  license?: LicenseDetails;
  reason?: InvalidReason;
  offlineVerified: boolean;
  machineBound?: boolean;
  machineFingerprint?: string;
}

export interface Jwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg?: string;
  use?: string;
}

export interface Jwks {
  keys: Jwk[];
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface LicenseClientOptions {
  /** e.g. http://localhost:3000/v1 (with /v1); a trailing slash is tolerated. */
  baseUrl: string;
  /** A publishable key (pk_…): safe to ship inside an application. */
  apiKey: string;
  /** The seller's JWK Set, embedded in the application. */
  publicKeys: Jwks;
  /** Names the cache folder (default 'licensing-app'). */
  appName?: string;
  /** Overrides the OS location of the cache. */
  cacheDir?: string;
  /** Overrides machineFingerprint(). */
  fingerprint?: string;
  fetch?: typeof fetch;
  /** Milliseconds since the epoch; for tests. */
  now?: () => number;
  /** For tests (checkout polling). */
  sleep?: Sleep;
  /** How long an unreachable server may be tolerated; default: no limit. */
  maxOfflineDays?: number;
}

export const CHECKOUT_POLL_INTERVAL_MS = 2000;
export const CHECKOUT_TIMEOUT_MS = 600_000;
export const CACHE_REFRESH_MS = 86_400_000;
/** Every request the library makes gives up after this long (then counts as a network error). */
export const REQUEST_TIMEOUT_MS = 10_000;
