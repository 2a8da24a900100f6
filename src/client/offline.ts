import { parseLicenseKey, type KeyProblem, type LicenseClaims } from '../domain/license-key.ts';
import { detailsFromClaims } from './license-details.ts';
import type { Jwks, LicenseDetails } from './types.ts';

export type OfflineVerdict =
  | { ok: true; claims: LicenseClaims }
  | { ok: false; reason: KeyProblem }
  /** Genuine but past its expiry: the claims name the license, whose renewal only the server knows of. */
  | { ok: false; reason: 'expired'; claims: LicenseClaims };

/**
 * The key's own evidence: the domain's parser for structure, the seller's JWKS for the `kid`,
 * WebCrypto for the Ed25519 signature (no Node needed), and the clock for expiry.
 */
export class OfflineVerifier {
  private readonly keys = new Map<string, Promise<CryptoKey | null>>();

  constructor(private readonly jwks: Jwks) {}

  async verify(licenseKey: string, now: number): Promise<OfflineVerdict> {
    const parsed = parseLicenseKey(licenseKey);
    if (!parsed.ok) return { ok: false, reason: parsed.reason };
    const { header, claims, signingInput, signature } = parsed.key;
    const key = await this.keyFor(header.kid);
    if (!key || !(await verifySignature(key, signature, signingInput))) return { ok: false, reason: 'invalid_signature' };
    if (claims.expiresAt !== null && now >= claims.expiresAt) return { ok: false, reason: 'expired', claims };
    return { ok: true, claims };
  }

  /** Signed answers (answer.ts) are checked against the same keys as license keys. */
  async verifyFor(kid: string, signature: Uint8Array, data: Uint8Array): Promise<'ok' | 'unknown_kid' | 'bad_signature'> {
    const key = await this.keyFor(kid);
    if (!key) return 'unknown_kid';
    return (await verifySignature(key, signature, data)) ? 'ok' : 'bad_signature';
  }

  private keyFor(kid: string): Promise<CryptoKey | null> {
    let key = this.keys.get(kid);
    if (!key) {
      key = importJwk(this.jwks, kid);
      this.keys.set(kid, key);
    }
    return key;
  }
}

async function importJwk(jwks: Jwks, kid: string): Promise<CryptoKey | null> {
  const jwk = Array.isArray(jwks?.keys) ? jwks.keys.find((k) => k?.kid === kid) : undefined;
  if (!jwk || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') return null;
  if (jwk.alg !== undefined && jwk.alg !== 'EdDSA' && jwk.alg !== 'Ed25519') return null;
  try {
    return await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, { name: 'Ed25519' }, false, ['verify']);
  } catch {
    return null;
  }
}

async function verifySignature(key: CryptoKey, signature: Uint8Array, data: Uint8Array): Promise<boolean> {
  try {
    return await crypto.subtle.verify('Ed25519', key, signature as BufferSource, data as BufferSource);
  } catch {
    return false;
  }
}

/** Display only: a perpetual or unexpired key reads 'active', a past expiry 'expired'. */
export function extractLicenseInfo(licenseKey: string, now: number): LicenseDetails | null {
  const parsed = parseLicenseKey(licenseKey);
  if (!parsed.ok) return null;
  const { expiresAt } = parsed.key.claims;
  return detailsFromClaims(parsed.key.claims, { status: expiresAt !== null && now >= expiresAt ? 'expired' : 'active' });
}
