/**
 * Machine files (docs/machine-files.md): a license checked out to one machine for offline use, as a
 * compact JWS (alg EdDSA, the seller's `kid`, typ licensing-machine-file+jws). Pure, so the client
 * library verifies with the same parser the server signs with.
 */
import { decodeBase64url, utf8 } from './base64url.ts';
import { decodeJson, encodeJson, LICENSE_KEY_ALG } from './license-key.ts';

/** Tells a machine file from a license key or a signed answer made by the same key. */
export const MACHINE_FILE_TYP = 'licensing-machine-file+jws';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export const MACHINE_FILE_LIMITS = {
  /** Files issued per license in any rolling 24 hours (deactivate/reactivate loops mint no more). */
  perDay: 10,
  windowMs: DAY_MS,
  defaultTtlDays: 30,
  /** ttlDays at least one hour (1/24), at most a year; the license's own end caps it further. */
  minTtlDays: 1 / 24,
  maxTtlDays: 365,
} as const;

/** How far this machine's clock may run behind the server's when the file was issued. */
export const MACHINE_FILE_DRIFT_MS = 5 * 60_000;

export interface MachineFileClaims {
  iss: string;
  /** The seller (developer id): the JWKS to look the `kid` up in. */
  sub: string;
  /** The file's own id (`mf_…`), as the seller's list shows it. */
  id: string;
  licenseId: string;
  productId: string;
  features: string[];
  /** Lower-case hex SHA-256 of the machine fingerprint: the file names no raw fingerprint. */
  fingerprintHash: string;
  issuedAt: number;
  expiresAt: number;
  /** The license's own end (null = perpetual): the file never outlives it. */
  licenseExpiresAt: number | null;
}

/** What the store keeps of every file issued (the seller's list). */
export interface MachineFileRecord {
  id: string;
  licenseId: string;
  fingerprintHash: string;
  issuedAt: number;
  expiresAt: number;
}

export interface ParsedMachineFile {
  kid: string;
  claims: MachineFileClaims;
  signingInput: Uint8Array;
  signature: Uint8Array;
}

/** The text to sign: base64url(header) "." base64url(claims), claims in a fixed order. */
export function machineFileSigningInput(kid: string, c: MachineFileClaims): string {
  const claims: MachineFileClaims = {
    iss: c.iss, sub: c.sub, id: c.id, licenseId: c.licenseId, productId: c.productId, features: c.features,
    fingerprintHash: c.fingerprintHash, issuedAt: c.issuedAt, expiresAt: c.expiresAt, licenseExpiresAt: c.licenseExpiresAt,
  };
  return `${encodeJson({ alg: LICENSE_KEY_ALG, kid, typ: MACHINE_FILE_TYP })}.${encodeJson(claims)}`;
}

/**
 * The file's expiry: now + ttlDays (default 30), never past the license's end. Null when ttlDays is
 * out of bounds (the caller names the field).
 */
export function machineFileExpiry(now: number, ttlDays: number | undefined, licenseExpiresAt: number | null): number | null {
  const days = ttlDays ?? MACHINE_FILE_LIMITS.defaultTtlDays;
  if (!Number.isFinite(days) || days < MACHINE_FILE_LIMITS.minTtlDays || days > MACHINE_FILE_LIMITS.maxTtlDays) return null;
  const own = now + Math.max(HOUR_MS, Math.round(days * DAY_MS));
  return licenseExpiresAt === null ? own : Math.min(own, licenseExpiresAt);
}

/** Structure only (header, claims, a 64-byte signature); the caller verifies the signature. */
export function parseMachineFile(text: unknown): ParsedMachineFile | null {
  if (typeof text !== 'string' || text.length > 16_384) return null;
  const parts = text.trim().split('.');
  if (parts.length !== 3) return null;
  const [h, p, s] = parts as [string, string, string];
  const header = decodeJson(h) as { alg?: unknown; kid?: unknown; typ?: unknown } | undefined;
  const claims = decodeJson(p);
  const signature = decodeBase64url(s);
  if (!header || header.alg !== LICENSE_KEY_ALG || header.typ !== MACHINE_FILE_TYP || typeof header.kid !== 'string' || header.kid === '') return null;
  if (!isClaims(claims) || !signature || signature.length !== 64) return null;
  return { kid: header.kid, claims, signingInput: utf8.encode(`${h}.${p}`), signature };
}

function isClaims(value: unknown): value is MachineFileClaims {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  return (
    ['iss', 'sub', 'id', 'licenseId', 'productId', 'fingerprintHash'].every((k) => typeof c[k] === 'string') &&
    Array.isArray(c.features) && c.features.every((f) => typeof f === 'string') &&
    Number.isSafeInteger(c.issuedAt) && Number.isSafeInteger(c.expiresAt) &&
    (c.licenseExpiresAt === null || Number.isSafeInteger(c.licenseExpiresAt))
  );
}
