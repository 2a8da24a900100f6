/**
 * Online validation verdict, in CONTRACT.md's precedence:
 * invalid_format → invalid_signature → not_found → revoked → expired → machine_mismatch.
 * Binding happens only when every check passes.
 */
import { licenseRefusal, type StoredLicenseStatus, type ValidationReason } from './license.ts';
import { decideSeat, type BindingDecision } from './machine-binding.ts';
import type { KeyProblem } from './license-key.ts';

export interface LicenseUnderValidation {
  storedStatus: StoredLicenseStatus;
  expiresAt: number | null;
  /** The fingerprints of the license's activations. */
  activations: readonly { machineFingerprint: string }[];
  /** null = unlimited. */
  maxMachines: number | null;
}

export type ValidationVerdict =
  | { valid: true; binding: Exclude<BindingDecision, { kind: 'mismatch' }> }
  | { valid: false; reason: ValidationReason };

export function judgeValidation(
  keyProblem: KeyProblem | null,
  license: LicenseUnderValidation | null,
  fingerprint: string,
  now: number,
): ValidationVerdict {
  if (keyProblem) return { valid: false, reason: keyProblem };
  if (!license) return { valid: false, reason: 'not_found' };
  const refusal = licenseRefusal(license, now);
  if (refusal) return { valid: false, reason: refusal };
  const held = license.activations.map((a) => a.machineFingerprint);
  const binding = decideSeat(held, license.maxMachines, fingerprint);
  if (binding.kind === 'mismatch') return { valid: false, reason: 'machine_mismatch' };
  return { valid: true, binding };
}
