import { createLocalJWKSet, compactVerify } from 'jose';
import { seller, testApi, type TestApi } from '../support/http.ts';

export const DAY = 86_400_000;

/** A seller with one granted license expiring in 30 days, on the real HTTP app over SQLite. */
export async function renewable(api: TestApi = testApi()) {
  const s = await seller(api);
  const granted = await s.grant({ expiresAt: api.clock.now() + 30 * DAY });
  return { api, s, license: granted.license as { id: string; expiresAt: number; issuedAt: number }, licenseKey: granted.licenseKey };
}

/** The key's claims, verified against the seller's published JWKS (as any JOSE library would). */
export async function verifiedClaims(api: TestApi, developerId: string, licenseKey: string) {
  const jwks = (await api.call('GET', `/developers/${developerId}/jwks.json`)).body;
  const { payload, protectedHeader } = await compactVerify(licenseKey, createLocalJWKSet(jwks));
  return { kid: protectedHeader.kid, claims: JSON.parse(new TextDecoder().decode(payload)) };
}
