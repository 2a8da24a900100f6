import type { LicenseClaims } from '../domain/license-key.ts';
import { LICENSE_STATUSES } from '../domain/license.ts';
import { isOneOf } from '../domain/vocabulary.ts';
import type { LicenseDetails, LicenseStatus } from './types.ts';

/** LicenseDetails from a key's claims. */
export function detailsFromClaims(claims: LicenseClaims, extra: { status?: LicenseStatus; productName?: string } = {}): LicenseDetails {
  return withName(
    {
      id: claims.id,
      productId: claims.productId,
      features: [...claims.features],
      status: extra.status ?? 'active',
      issuedAt: claims.issuedAt,
      expiresAt: claims.expiresAt,
    },
    extra.productName,
  );
}

/** A license object from the server (which may carry customerId, machineFingerprint…) narrowed to LicenseDetails. */
export function detailsFromServer(license: Record<string, unknown>, productName?: string): LicenseDetails {
  return withName(
    {
      id: String(license.id),
      productId: String(license.productId),
      features: Array.isArray(license.features) ? license.features.map(String) : [],
      status: statusOf(license.status),
      issuedAt: Number(license.issuedAt),
      expiresAt: typeof license.expiresAt === 'number' ? license.expiresAt : null,
    },
    productName,
  );
}

export function statusOf(value: unknown): LicenseStatus {
  return isOneOf(LICENSE_STATUSES, value) ? value : 'active';
}

function withName(details: LicenseDetails, productName: string | undefined): LicenseDetails {
  return productName === undefined ? details : { ...details, productName };
}
