/**
 * License keys: compact JWS (RFC 7515), alg EdDSA over Ed25519 (RFC 8037), `kid` in the header.
 * Parsing and verification live here, free of any server import, so the client library reuses them;
 * the Ed25519 primitive itself is passed in.
 */
import { decodeBase64url, encodeBase64url, utf8 } from './base64url.ts';

export interface LicenseClaims {
  iss: string;
  sub: string;
  id: string;
  productId: string;
  features: string[];
  issuedAt: number;
  expiresAt: number | null;
  /**
   * Only on a free trial's key. A purchase converts the trial in place and re-signs it without this
   * claim (docs/trials.md).
   */
  trial?: true;
  /**
   * Only on a trial's key whose holder proved the e-mail (the code mailed by POST /trials) or was
   * vouched for by the seller's server (a secret key): once a purchase converts the trial, online
   * validation hands this key's holder the paid key, as for a renewal. A trial key without it (from
   * before e-mailed codes, when anyone could start a trial for any address) then names no license.
   */
  proven?: true;
}

export interface LicenseKeyHeader {
  alg: string;
  kid: string;
  typ?: string;
}

export interface ParsedLicenseKey {
  header: LicenseKeyHeader;
  claims: LicenseClaims;
  signingInput: Uint8Array;
  signature: Uint8Array;
}

export type KeyProblem = 'invalid_format' | 'invalid_signature';
export type ParseResult = { ok: true; key: ParsedLicenseKey } | { ok: false; reason: KeyProblem };
export type VerifyResult = { ok: true; key: ParsedLicenseKey } | { ok: false; reason: KeyProblem };

/** Ed25519 verification of `signature` over `data`, for one public key. */
export type Ed25519Verify = (data: Uint8Array, signature: Uint8Array) => boolean;

export const LICENSE_KEY_ALG = 'EdDSA';
export const MAX_KEY_LENGTH = 8192;

/** The part of a key that gets signed: base64url(header) "." base64url(claims). */
export function signingInputFor(kid: string, claims: LicenseClaims): string {
  const header: LicenseKeyHeader = { alg: LICENSE_KEY_ALG, kid, typ: 'JWT' };
  const ordered: LicenseClaims = {
    iss: claims.iss,
    sub: claims.sub,
    id: claims.id,
    productId: claims.productId,
    features: claims.features,
    issuedAt: claims.issuedAt,
    expiresAt: claims.expiresAt,
    ...(claims.trial === true && { trial: true as const }),
    ...(claims.proven === true && { proven: true as const }),
  };
  return `${encodeJson(header)}.${encodeJson(ordered)}`;
}

export function assembleLicenseKey(signingInput: string, signature: Uint8Array): string {
  return `${signingInput}.${encodeBase64url(signature)}`;
}

/** Structure only: no signature check. `extractLicenseInfo` and verification both start here. */
export function parseLicenseKey(key: unknown): ParseResult {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) return fail('invalid_format');
  const parts = key.split('.');
  if (parts.length !== 3) return fail('invalid_format');
  const [h, p, s] = parts as [string, string, string];
  const header = decodeJson(h);
  const claims = decodeJson(p);
  const signature = decodeBase64url(s);
  if (!isHeader(header) || !isClaims(claims) || signature === null) return fail('invalid_format');
  if (header.alg !== LICENSE_KEY_ALG || signature.length !== 64) return fail('invalid_signature');
  return { ok: true, key: { header, claims, signingInput: utf8.encode(`${h}.${p}`), signature } };
}

/** Full offline check: structure, algorithm, known `kid`, Ed25519 signature. */
export function verifyLicenseKey(key: unknown, verifierFor: (kid: string) => Ed25519Verify | undefined): VerifyResult {
  const parsed = parseLicenseKey(key);
  if (!parsed.ok) return parsed;
  const verify = verifierFor(parsed.key.header.kid);
  if (!verify || !verify(parsed.key.signingInput, parsed.key.signature)) return fail('invalid_signature');
  return parsed;
}

function fail(reason: KeyProblem): { ok: false; reason: KeyProblem } {
  return { ok: false, reason };
}

/** A JWS segment: base64url of the JSON (license keys, signed answers' headers, key statements). */
export function encodeJson(value: unknown): string {
  return encodeBase64url(utf8.encode(JSON.stringify(value)));
}

/** The JSON of a JWS segment; undefined when it is not base64url of UTF-8 JSON. */
export function decodeJson(segment: string): unknown {
  const bytes = decodeBase64url(segment);
  const text = bytes && utf8.decode(bytes);
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isHeader(value: unknown): value is LicenseKeyHeader {
  return isRecord(value) && typeof value.alg === 'string' && typeof value.kid === 'string' && value.kid.length > 0;
}

function isClaims(value: unknown): value is LicenseClaims {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.productId === 'string' &&
    typeof value.sub === 'string' &&
    typeof value.iss === 'string' &&
    Array.isArray(value.features) &&
    value.features.every((f) => typeof f === 'string') &&
    Number.isSafeInteger(value.issuedAt) &&
    (value.expiresAt === null || Number.isSafeInteger(value.expiresAt)) &&
    (value.trial === undefined || value.trial === true) &&
    (value.proven === undefined || value.proven === true)
  );
}
