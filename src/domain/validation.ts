/**
 * Online validation verdict, in CONTRACT.md's precedence:
 * invalid_format → invalid_signature → not_found → revoked → expired → machine_mismatch; a
 * validation scoped to entitlements answers not_found, with the missing codes, right before the
 * machine is looked at (docs/entitlements.md). Binding happens only when every check passes.
 */
import { licenseRefusal, type StoredLicenseStatus, type ValidationReason } from './license.ts';
import { missingEntitlements } from './entitlements.ts';
import { decideSeat, type BindingDecision } from './machine-binding.ts';
import type { KeyProblem } from './license-key.ts';

/** The order of the checks (CONTRACT.md's precedence): the first that fails names the reason. Every reason once. */
export const VALIDATION_PRECEDENCE = ['invalid_format', 'invalid_signature', 'not_found', 'revoked', 'expired', 'machine_mismatch'] as const satisfies readonly ValidationReason[];

export interface LicenseUnderValidation {
  storedStatus: StoredLicenseStatus;
  /** The license's entitlements, for a validation that asks for some (scope.entitlements). */
  features?: readonly string[];
  expiresAt: number | null;
  /** The fingerprints of the license's activations. */
  activations: readonly { machineFingerprint: string }[];
  /** null = unlimited. */
  maxMachines: number | null;
}

export type ValidationVerdict =
  | { valid: true; binding: Exclude<BindingDecision, { kind: 'mismatch' }> }
  /** missingEntitlements: the asked codes the license lacks (docs/entitlements.md), with reason not_found. */
  | { valid: false; reason: ValidationReason; missingEntitlements?: string[] };

export function judgeValidation(
  keyProblem: KeyProblem | null,
  license: LicenseUnderValidation | null,
  fingerprint: string,
  now: number,
  /** scope.entitlements: codes the application needs; a license lacking any is not_found for it, nothing bound. */
  asked?: readonly string[],
): ValidationVerdict {
  if (keyProblem) return { valid: false, reason: keyProblem };
  if (!license) return { valid: false, reason: 'not_found' };
  const refusal = licenseRefusal(license, now);
  if (refusal) return { valid: false, reason: refusal };
  const missing = asked ? missingEntitlements(license.features ?? [], asked) : [];
  if (missing.length > 0) return { valid: false, reason: 'not_found', missingEntitlements: missing };
  const held = license.activations.map((a) => a.machineFingerprint);
  const binding = decideSeat(held, license.maxMachines, fingerprint);
  if (binding.kind === 'mismatch') return { valid: false, reason: 'machine_mismatch' };
  return { valid: true, binding };
}
