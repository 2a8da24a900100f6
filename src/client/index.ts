/**
 * The client library sellers embed in their applications (SPEC.md section 1, "Client-side
 * verification flow"). Runs on Bun, Node ≥ 20 and in browsers: WebCrypto for Ed25519 and
 * SHA-256, Node's fs only through guarded dynamic imports. Published as @licensing/client
 * (packages/client, built by `bun run build:client`; docs/client.md).
 */
export { LicenseClient } from './client.ts';
export type { ActivateOptions, ActivationResult, MachineActivation, MachineActivations } from './activations.ts';
export type { HeldLease, LeaseOptions } from './lease.ts';
export type { BorrowedLease, LeaseTokenCheck } from './lease-token.ts';
export { ActivationLimitError, ApiError, CheckoutError, type ActivationSlot, type CheckoutErrorKind } from './errors.ts';
export { FINGERPRINT_ENV, machineFingerprint, osMachineId, productFingerprint, type MachineIdSource, type MachineParts } from './fingerprint.ts';
export { checkMachineFile, MACHINE_FILE_REASONS, verifyMachineFile, type MachineFileCheck, type MachineFileReason, type MachineFileVerdict } from './machine-file.ts';
export type { MachineFileClaims } from '../domain/machine-file.ts';
export type { CheckoutOptions, CheckoutProgress, CheckoutStatus } from './checkout.ts';
export type { CodeSent, CustomerLicense, PurchaseOffer } from './terminal.ts';
export type { StartedTrial, StartTrialOptions, TrialCodeSent } from './trial.ts';
export {
  CACHE_REFRESH_MS,
  CHECKOUT_POLL_INTERVAL_MS,
  CHECKOUT_TIMEOUT_MS,
  CLOCK_TOLERANCE_MS,
  NEVER_VERIFIED_ONLINE,
  type CheckOptions,
  type CheckWarning,
  type InvalidCheckResult,
  type InvalidReason,
  type Jwk,
  type Jwks,
  type LicenseCheckResult,
  type LicenseClientOptions,
  type LicenseDetails,
  type LicenseStatus,
  type Sleep,
  type ValidCheckResult,
} from './types.ts';
