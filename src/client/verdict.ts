import { VALIDATION_REASONS } from '../domain/license.ts';
import { isOneOf } from '../domain/vocabulary.ts';
import { statusOf } from './license-details.ts';
import type { InvalidReason, LicenseDetails } from './types.ts';

export type OnlineVerdict = { valid: true; status: LicenseDetails['status']; licenseId: unknown; licenseKey?: string } | { valid: false; reason: InvalidReason };

/** A body that is not one of the spec's two validation answers is no verdict (a failing server, step 5). */
export function onlineVerdict(body: unknown): OnlineVerdict | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as { valid?: unknown; reason?: unknown; license?: { status?: unknown; id?: unknown; licenseKey?: unknown } };
  if (b.valid === true) {
    const offered = typeof b.license?.licenseKey === 'string' ? { licenseKey: b.license.licenseKey } : {};
    return { valid: true, status: statusOf(b.license?.status), licenseId: b.license?.id, ...offered };
  }
  if (b.valid === false && isOneOf(VALIDATION_REASONS, b.reason)) return { valid: false, reason: b.reason };
  return null;
}

/** A verdict that stands against every key of the license until a newer signed answer lifts it. */
export function condemns(verdict: { valid: boolean; reason?: InvalidReason } | null): boolean {
  return verdict?.valid === false && (verdict.reason === 'revoked' || verdict.reason === 'expired');
}
