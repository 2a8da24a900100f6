import { parseAnswer } from '../domain/signed-answer.ts';
import type { OfflineVerifier } from './offline.ts';

/** A borrowed lease as its signed token states it (docs/leases.md, "Borrowing"). */
export interface BorrowedLease {
  id: string;
  licenseId: string;
  productId: string;
  machineFingerprint: string;
  expiresAt: number;
}

export type LeaseTokenCheck = { ok: true; lease: BorrowedLease } | { ok: false; reason: 'malformed' | 'untrusted_key' | 'bad_signature' | 'another_machine' | 'another_product' | 'expired'; message: string };

const refuse = (reason: Exclude<LeaseTokenCheck, { ok: true }>['reason'], message: string): LeaseTokenCheck => ({ ok: false, reason, message });

function borrowedOf(body: string): BorrowedLease | null {
  try {
    const lease = (JSON.parse(body) as { lease?: Partial<BorrowedLease> & { borrowed?: unknown } }).lease;
    if (!lease || lease.borrowed !== true) return null;
    const { id, licenseId, productId, machineFingerprint, expiresAt } = lease;
    if (typeof id !== 'string' || typeof licenseId !== 'string' || typeof productId !== 'string' || typeof machineFingerprint !== 'string' || typeof expiresAt !== 'number') return null;
    return { id, licenseId, productId, machineFingerprint, expiresAt };
  } catch {
    return null;
  }
}

/**
 * With no network: a lease token is believed when a trusted key signed it (op lease), it names this
 * machine and one of the application's products, and `now` is before its end.
 */
export async function verifyLeaseToken(
  verifier: OfflineVerifier,
  token: string,
  expected: { machineFingerprint: string; productIds: readonly string[]; now: number },
): Promise<LeaseTokenCheck> {
  const parsed = parseAnswer(token);
  const lease = parsed && parsed.header.op === 'lease' ? borrowedOf(parsed.body) : null;
  if (!parsed || !lease) return refuse('malformed', 'This is not a borrowed lease token.');
  const checked = await verifier.verifyFor(parsed.header.kid, parsed.signature, parsed.signingInput);
  if (checked === 'unknown_kid' || checked === 'compromised_key') return refuse('untrusted_key', `The token is signed with key ${parsed.header.kid}, which this application does not trust.`);
  if (checked === 'bad_signature') return refuse('bad_signature', 'The token’s signature does not verify: it was altered or forged.');
  if (lease.machineFingerprint !== expected.machineFingerprint || parsed.header.machineFingerprint !== lease.machineFingerprint) return refuse('another_machine', 'The token was borrowed by another machine.');
  if (!expected.productIds.includes(lease.productId)) return refuse('another_product', 'The token is for another product.');
  if (expected.now >= lease.expiresAt) return refuse('expired', `The borrowed lease ended at ${new Date(lease.expiresAt).toISOString()}.`);
  return { ok: true, lease };
}
