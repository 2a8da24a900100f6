/** The spec's client-side shapes (SPEC.md section 2), shared by the library and its callers. */

// The spec's status and reason sets are the domain's own: one definition for server and client.
import type { InvalidReason, LicenseStatus } from '../domain/license.ts';
import type { ApiError } from './errors.ts';

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

/** What every check answers, valid or not (SPEC.md section 2, "Client license check result"). */
interface CheckResultBase {
  /** True when this answer came from the key and the cache alone, without the server. */
  offlineVerified: boolean;
  machineBound?: boolean;
  machineFingerprint?: string;
  /**
   * Set when the server refused the validation request itself (a wrong publishable key, a wrong
   * baseUrl…), or answered something not signed for this request (`unverified_answer`): the
   * answer is still the offline one, but the server will not bind or revoke anything until the
   * configuration is fixed. Also set (status 0, code `never_verified_online`) on an offline answer
   * for a license the service has never once confirmed on this machine: step 5 still answers from
   * the key alone, and the application may decide how far to trust that.
   */
  warning?: CheckWarning;
  /**
   * Set (with `valid: false`, reason `network_error`) when the system clock is earlier than the
   * latest server time this client has seen by more than `clockToleranceMs`: expiry and the offline
   * allowance cannot be judged on such a clock, so only a successful online check answers until then.
   */
  clockRollback?: boolean;
  /**
   * Set when this check replaced the stored key with the license's current one (renewed, or a trial
   * bought): the server handed it over in its signed answer and it verified offline. Applications
   * that keep the key elsewhere too should store this one (docs/renewals.md).
   */
  renewedLicenseKey?: string;
}

export interface ValidCheckResult extends CheckResultBase {
  valid: true;
  license: LicenseDetails;
  reason?: undefined;
}

export interface InvalidCheckResult extends CheckResultBase {
  valid: false;
  reason: InvalidReason;
  license?: undefined;
  /**
   * Only for check({ entitlements }), with reason `not_found`: the asked codes this license lacks,
   * as asked (from the service's signed answer, or offline from the verified key and answer). What
   * the application may offer to buy; check() without them still answers for the license itself.
   */
  missingEntitlements?: string[];
}

/** `valid` tells which: with `valid: true` there is a `license`, with `valid: false` a `reason`. */
export type LicenseCheckResult = ValidCheckResult | InvalidCheckResult;

/** The warning code of an offline answer for a license the service has never confirmed on this machine. */
export const NEVER_VERIFIED_ONLINE = 'never_verified_online';

export interface CheckWarning {
  /** The HTTP status the service answered (401, 403, 404, …). */
  status: number;
  /** The service's error code (`unauthorized`, `forbidden`, `not_found`, …) or `invalid_response`. */
  code: string;
  message: string;
}

export interface CheckOptions {
  /** Ask the server now, whatever the cache says (e.g. behind a "Check license" button). */
  online?: boolean;
  /**
   * Entitlement codes this check needs (case-insensitive; at most 100): sent as scope.entitlements.
   * A license lacking any is answered `valid: false`, reason `not_found`, with `missingEntitlements`
   * (docs/entitlements.md). A code the cached evidence lacks makes the check ask the service.
   */
  entitlements?: readonly string[];
}

/**
 * One key of the seller's JWK Set. Strings rather than literal types, so a JWKS imported from a
 * JSON file type-checks as it is; keys other than OKP / Ed25519 are ignored when verifying.
 */
export interface Jwk {
  kty: string;
  crv?: string;
  x?: string;
  kid?: string;
  alg?: string;
  use?: string;
}

export interface Jwks {
  keys: readonly Jwk[];
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface LicenseClientOptions {
  /** e.g. https://licensing.example.com/v1; `/v1` is added when missing, a trailing slash is tolerated. */
  baseUrl: string;
  /** A publishable key (pk_…): safe to ship inside an application. A secret key (sk_…) is refused. */
  apiKey: string;
  /**
   * The product this application is (prod_…), or a list of its editions (at most 20). Required: a
   * key of any other product of the seller (a cheaper edition, another app's trial) is then
   * not_found, offline (the key's claims) and online (sent with every validation and activation).
   */
  productId: string | readonly string[];
  /** The seller's JWK Set, embedded in the application. */
  publicKeys: Jwks;
  /** Names the cache folder (default 'licensing-app'). */
  appName?: string;
  /** Overrides the OS location of the cache. */
  cacheDir?: string;
  /** Overrides machineFingerprint(). */
  fingerprint?: string;
  /**
   * Refuse the LICENSING_FINGERPRINT override (default false: honoured, for containers and CI). Set
   * it when the user must not choose the machine: whoever sets the variable to another machine's
   * fingerprint passes as that machine, for activations, validations and machine files alike.
   */
  ignoreFingerprintEnv?: boolean;
  fetch?: typeof fetch;
  /** Milliseconds since the epoch; for tests. */
  now?: () => number;
  /** For tests (checkout polling). */
  sleep?: Sleep;
  /**
   * Days a key may go on without the server confirming it (counted from the last valid online
   * answer, or from the first time its license was stored on this machine: storing it again does
   * not start the count over); past that, check() answers `network_error`. Default: no limit, as
   * the spec's step 5 says; 30 is the recommended setting (docs/client.md).
   */
  maxOfflineDays?: number;
  /**
   * How far (ms) the system clock may be behind the latest server time seen before check() stops
   * trusting it (`clockRollback`). Default CLOCK_TOLERANCE_MS, one hour.
   */
  clockToleranceMs?: number;
  /** Called whenever an online validation failed and the offline result was used instead. */
  onError?: (error: ApiError) => void;
}

export const CHECKOUT_POLL_INTERVAL_MS = 2000;
export const CHECKOUT_TIMEOUT_MS = 600_000;
export const CACHE_REFRESH_MS = 86_400_000;
/** The default `clockToleranceMs`: time-zone and daylight-saving slips stay well inside it. */
export const CLOCK_TOLERANCE_MS = 3_600_000;
/** Every request the library makes gives up after this long (then counts as a network error). */
export const REQUEST_TIMEOUT_MS = 10_000;
