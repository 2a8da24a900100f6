import type { LicenseClaims } from '../domain/license-key.ts';
import type { OfflineVerifier } from './offline.ts';
import type { CheckWarning } from './types.ts';

export type Adoption = { ok: true; licenseKey: string; claims: LicenseClaims; expired: boolean } | { ok: false; warning: CheckWarning };

/**
 * docs/renewals.md: a signed validation answer may hand over the license's current key (renewed, or
 * a trial converted). It is taken only on its own evidence, as any key is: the seller's signature
 * (same JWKS), the same license of the same seller and product. Expired by this clock it is still
 * the newer key (the caller then answers expired); anything else is ignored with a warning.
 */
export async function adoptOfferedKey(verifier: OfflineVerifier, held: LicenseClaims, offered: string, now: number): Promise<Adoption> {
  const verdict = await verifier.verify(offered, now);
  if (!verdict.ok && verdict.reason !== 'expired') return refuse(`The renewed license key in the answer does not verify (${verdict.reason}): kept the stored key.`);
  const { claims } = verdict;
  if (claims.id !== held.id || claims.sub !== held.sub || claims.productId !== held.productId) {
    return refuse('The renewed license key in the answer is for another license: kept the stored key.');
  }
  return { ok: true, licenseKey: offered, claims, expired: !verdict.ok };
}

function refuse(message: string): Adoption {
  return { ok: false, warning: { status: 200, code: 'invalid_renewed_key', message } };
}
