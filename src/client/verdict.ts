import { FINAL_LICENSE_STATUSES, VALIDATION_REASONS } from '../domain/license.ts';
import { isOneOf } from '../domain/vocabulary.ts';
import { statusOf } from './license-details.ts';
import type { InvalidReason, LicenseDetails } from './types.ts';

/**
 * `features`: what the signed answer says the license holds now; `missingEntitlements`: the codes a
 * request's scope asked for that it lacks (reason not_found; docs/entitlements.md).
 */
export type OnlineVerdict =
  | { valid: true; status: LicenseDetails['status']; licenseId: unknown; licenseKey?: string; features?: string[] }
  | { valid: false; reason: InvalidReason; missingEntitlements?: string[] };

/** A body that is not one of the spec's two validation answers is no verdict (a failing server, step 5). */
export function onlineVerdict(body: unknown): OnlineVerdict | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as { valid?: unknown; reason?: unknown; missingEntitlements?: unknown; license?: { status?: unknown; id?: unknown; licenseKey?: unknown; features?: unknown } };
  if (b.valid === true) {
    const offered = typeof b.license?.licenseKey === 'string' ? { licenseKey: b.license.licenseKey } : {};
    const features = strings(b.license?.features) ? { features: b.license.features } : {};
    return { valid: true, status: statusOf(b.license?.status), licenseId: b.license?.id, ...offered, ...features };
  }
  if (b.valid === false && isOneOf(VALIDATION_REASONS, b.reason)) {
    return strings(b.missingEntitlements) && b.reason === 'not_found' ? { valid: false, reason: b.reason, missingEntitlements: b.missingEntitlements } : { valid: false, reason: b.reason };
  }
  return null;
}

/** A verdict that stands against every key of the license until a newer signed answer lifts it. */
export function condemns(verdict: { valid: boolean; reason?: InvalidReason } | null): boolean {
  return verdict?.valid === false && isOneOf(FINAL_LICENSE_STATUSES, verdict.reason);
}

function strings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}
