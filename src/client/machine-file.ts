import { MACHINE_FILE_DRIFT_MS, parseMachineFile, type MachineFileClaims } from '../domain/machine-file.ts';
import { sha256Hex } from '../domain/sha256.ts';
import { verifySignature } from './offline.ts';
import { KeyTrust } from './trust.ts';
import { CLOCK_TOLERANCE_MS, type Jwks } from './types.ts';

/**
 * Why a machine file is refused (docs/machine-files.md), in the order they are checked:
 * `format` not a machine file; `signature` not signed by a key this application trusts (or by one
 * retired as compromised before the file was issued); `product` a file of another product;
 * `machine` issued to another machine; `not_yet_valid` this clock is more than 5 minutes before its
 * issue time; `clock_rolled_back` this clock is behind the highest time this client has seen;
 * `expired` past its expiry.
 */
export const MACHINE_FILE_REASONS = ['format', 'signature', 'product', 'machine', 'not_yet_valid', 'clock_rolled_back', 'expired'] as const;
export type MachineFileReason = (typeof MACHINE_FILE_REASONS)[number];

export type MachineFileVerdict = { valid: true; file: MachineFileClaims } | { valid: false; reason: MachineFileReason };

export interface MachineFileCheck {
  /** This machine's fingerprint, or several (the current one and the legacy one, docs/machine-files.md). */
  fingerprint: string | readonly string[];
  /** Milliseconds since the epoch; default Date.now(). */
  now?: number;
  /** The highest time this client has seen (a signed server time, an earlier run's clock); null = none. */
  highestSeen?: number | null;
  /** How far the clock may be behind `highestSeen` (default CLOCK_TOLERANCE_MS, one hour). */
  clockToleranceMs?: number;
  /** The application's products: a file of any other is refused (`product`). Absent: any. */
  productId?: string | readonly string[];
}

/** Checks a machine file with no network against the trust this client holds (its shipped and learned keys). */
export async function checkMachineFile(trust: KeyTrust, text: unknown, check: MachineFileCheck): Promise<MachineFileVerdict> {
  const parsed = parseMachineFile(text);
  if (!parsed) return refuse('format');
  const { claims } = parsed;
  // No seller named: an unknown kid is refused here rather than looked up (no network).
  const key = await trust.keyFor(parsed.kid);
  if (!key || !(await verifySignature(key.key, parsed.signature, parsed.signingInput))) return refuse('signature');
  if (key.compromisedAt !== null && claims.issuedAt >= key.compromisedAt) return refuse('signature');
  const products = check.productId === undefined ? null : [check.productId].flat();
  if (products && !products.includes(claims.productId)) return refuse('product');
  const hashes = await Promise.all([check.fingerprint].flat().map(sha256Hex));
  if (!hashes.includes(claims.fingerprintHash)) return refuse('machine');
  const now = check.now ?? Date.now();
  if (now < claims.issuedAt - MACHINE_FILE_DRIFT_MS) return refuse('not_yet_valid');
  const highest = check.highestSeen ?? null;
  if (highest !== null && now < highest - (check.clockToleranceMs ?? CLOCK_TOLERANCE_MS)) return refuse('clock_rolled_back');
  if (now >= claims.expiresAt) return refuse('expired');
  return { valid: true, file: claims };
}

/**
 * The same check for callers without a LicenseClient: `publicKeys` is the seller's JWK Set the
 * application ships with. No key is fetched: the file verifies offline or not at all.
 */
export function verifyMachineFile(machineFile: unknown, options: MachineFileCheck & { publicKeys: Jwks }): Promise<MachineFileVerdict> {
  return checkMachineFile(new KeyTrust(options.publicKeys), machineFile, options);
}

function refuse(reason: MachineFileReason): MachineFileVerdict {
  return { valid: false, reason };
}
