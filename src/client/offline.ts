import { parseLicenseKey, type KeyProblem, type LicenseClaims } from '../domain/license-key.ts';
import { detailsFromClaims } from './license-details.ts';
import { KeyTrust } from './trust.ts';
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
  /** The shipped JWKS and the keys learned by following the seller's rotations (trust.ts). */
  readonly trust: KeyTrust;

  constructor(jwks: Jwks) {
    this.trust = new KeyTrust(jwks);
  }

  async verify(licenseKey: string, now: number): Promise<OfflineVerdict> {
    const parsed = parseLicenseKey(licenseKey);
    if (!parsed.ok) return { ok: false, reason: parsed.reason };
    const { header, claims, signingInput, signature } = parsed.key;
    const key = await this.trust.keyFor(header.kid, claims.sub);
    if (!key || !(await verifySignature(key.key, signature, signingInput))) return { ok: false, reason: 'invalid_signature' };
    // docs/key-rotation.md: a key retired as compromised vouches for nothing issued from then on.
    if (key.compromisedAt !== null && claims.issuedAt >= key.compromisedAt) return { ok: false, reason: 'invalid_signature' };
    if (claims.expiresAt !== null && now >= claims.expiresAt) return { ok: false, reason: 'expired', claims };
    return { ok: true, claims };
  }

  /**
   * Signed answers (answer.ts) are checked against the same keys as license keys. An answer carries a
   * fresh nonce, so it was made now: a key known to be compromised signs none the client believes.
   */
  async verifyFor(kid: string, signature: Uint8Array, data: Uint8Array): Promise<'ok' | 'unknown_kid' | 'bad_signature' | 'compromised_key'> {
    const key = await this.trust.keyFor(kid);
    if (!key) return 'unknown_kid';
    if (key.compromisedAt !== null) return 'compromised_key';
    return (await verifySignature(key.key, signature, data)) ? 'ok' : 'bad_signature';
  }
}

export async function verifySignature(key: CryptoKey, signature: Uint8Array, data: Uint8Array): Promise<boolean> {
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
