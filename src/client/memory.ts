import { parseLicenseKey } from '../domain/license-key.ts';
import { FINAL_LICENSE_STATUSES, type FinalLicenseStatus } from '../domain/license.ts';
import { isOneOf } from '../domain/vocabulary.ts';
import { verifyAnswer } from './answer.ts';
import { EMPTY_FILE, MEMORY_LIMIT, type CacheFile, type CacheRecord, type LicenseMemory, type StoredAnswer } from './cache.ts';
import { parseMachineFile } from '../domain/machine-file.ts';
import { checkMachineFile } from './machine-file.ts';
import type { OfflineVerifier } from './offline.ts';
import type { LicenseDetails } from './types.ts';
import { condemns, onlineVerdict, type OnlineVerdict } from './verdict.ts';

/**
 * What the client remembers between runs (docs/client.md, "What the client remembers"), read back
 * as the record the checks use. Nothing in the file is believed on its own say: the verdict, when
 * it was given and when the license was last valid come from the stored signed answer, verified
 * again here against the seller's keys, this machine and this license. Whatever does not verify
 * counts as no answer, so an edited file is worth no more than a deleted one.
 */
export async function recall(file: CacheFile, verifier: OfflineVerifier, fingerprint: string, clockToleranceMs: number, legacyFingerprint?: string): Promise<CacheRecord | null> {
  const current = file.current;
  if (!current) return null;
  const parsed = parseLicenseKey(current.licenseKey);
  if (!parsed.ok) return null;
  const licenseId = parsed.key.claims.id;
  const memory = file.licenses[licenseId];
  // An answer about this machine under its legacy fingerprint (docs/machine-files.md, "Migration") still counts.
  const heard = memory?.answer ? ((await verified(memory.answer, verifier, fingerprint, licenseId)) ?? (legacyFingerprint === undefined ? null : await verified(memory.answer, verifier, legacyFingerprint, licenseId))) : null;
  const legacy = !heard && memory?.condemned ? ({ valid: false, reason: memory.condemned } as const) : null;
  // The clock that received the answer is believed only up to the answer's own signed time.
  const at = heard && Math.min(heard.answer.receivedAt, heard.serverTime + clockToleranceMs);
  const verdict = heard ? (heard.verdict.valid ? ({ valid: true } as const) : { valid: false as const, reason: heard.verdict.reason }) : legacy;
  return {
    licenseKey: current.licenseKey,
    licenseId,
    storedAt: memory?.firstStoredAt ?? 0,
    refreshedAt: at,
    lastValidAt: heard?.verdict.valid ? at : null,
    license: withVerdict(current.license, heard?.verdict ?? legacy),
    machineBound: current.machineBound,
    machineFingerprint: current.machineFingerprint,
    verdict,
    answer: heard ? heard.answer : null,
    heard: heard && evidenceOf(heard.verdict, heard.serverTime),
    machineFile: memory?.machineFile ? await machineFileEvidence(memory.machineFile, verifier, [fingerprint, ...(legacyFingerprint === undefined ? [] : [legacyFingerprint])], licenseId) : null,
    serverTime: Math.max(file.serverTime ?? 0, heard?.serverTime ?? 0) || null,
    ...(file.seenAt !== undefined && { seenAt: file.seenAt }),
  };
}

async function verified(answer: StoredAnswer, verifier: OfflineVerifier, fingerprint: string, licenseId: string) {
  const signed = await verifyAnswer(verifier, answer.signature, answer.text, { op: 'validate', nonce: answer.nonce, machineFingerprint: fingerprint });
  if (!signed.ok) return null;
  const verdict = onlineVerdict(signed.body);
  // A valid answer names its license; an invalid one names none, and only ever counts against it.
  if (!verdict || (verdict.valid && verdict.licenseId !== licenseId)) return null;
  // An answer to a request scoped to entitlements says nothing of the license itself (never stored; not believed if found).
  if (!verdict.valid && verdict.missingEntitlements) return null;
  return { answer, verdict, serverTime: signed.serverTime };
}

/**
 * A kept machine file, believed only when it still verifies: the seller's signature, this machine,
 * this license. Its time limits are the reader's (entitlements.ts): evidence until it expires.
 */
async function machineFileEvidence(text: string, verifier: OfflineVerifier, fingerprints: string[], licenseId: string): Promise<CacheRecord['machineFile']> {
  const parsed = parseMachineFile(text);
  if (!parsed || parsed.claims.licenseId !== licenseId) return null;
  const verdict = await checkMachineFile(verifier.trust, text, { fingerprint: fingerprints, now: parsed.claims.issuedAt, highestSeen: null });
  if (!verdict.valid) return null;
  const { features, issuedAt, expiresAt } = verdict.file;
  return { text, features, issuedAt, expiresAt };
}

/** A valid answer's entitlements, when it lists them; a refusal holds none. */
function evidenceOf(verdict: OnlineVerdict, serverTime: number): CacheRecord['heard'] {
  if (!verdict.valid) return { features: [], serverTime };
  return verdict.features ? { features: verdict.features, serverTime } : null;
}

/** The status shown is the signed verdict's, never the file's: without one it is what the key alone says. */
function withVerdict(license: LicenseDetails | null, verdict: OnlineVerdict | { valid: false; reason: FinalLicenseStatus } | null): LicenseDetails | null {
  if (!license) return license;
  if (verdict?.valid) return { ...license, status: verdict.status };
  const reason = verdict?.reason;
  return { ...license, status: isOneOf(FINAL_LICENSE_STATUSES, reason) ? reason : 'active' };
}

/** The record written back: its key becomes the current one, its answer its license's memory. */
export function remember(file: CacheFile, record: CacheRecord): CacheFile {
  const { licenseKey, license, machineBound, machineFingerprint } = record;
  const before = file.licenses[record.licenseId];
  const memory: LicenseMemory = { firstStoredAt: Math.min(before?.firstStoredAt ?? record.storedAt, record.storedAt), answer: record.answer };
  // A legacy revocation is lifted only by a signed answer.
  if (!record.answer && before?.condemned) memory.condemned = before.condemned;
  const machineFile = record.machineFile?.text ?? before?.machineFile;
  if (machineFile) memory.machineFile = machineFile;
  return {
    ...file,
    current: { licenseKey, license, machineBound, machineFingerprint },
    licenses: bounded({ ...file.licenses, [record.licenseId]: memory }, record.licenseId),
    serverTime: Math.max(file.serverTime ?? 0, record.serverTime ?? 0) || null,
  };
}

/**
 * A key stored by the application (typed in again, bought, renewed by hand): it becomes the current
 * key, and its license keeps what this machine remembers of it. Storing it again, or another key of
 * the same license, neither restarts the offline allowance nor forgets a revocation.
 */
export function storeKey(file: CacheFile, key: string, licenseId: string, license: LicenseDetails | null, now: number): CacheFile {
  const before = file.licenses[licenseId];
  const same = file.current && parseLicenseKey(file.current.licenseKey);
  const sameLicense = same?.ok === true && same.key.claims.id === licenseId ? file.current : null;
  const memory: LicenseMemory = before ?? { firstStoredAt: now, answer: null };
  return {
    ...file,
    current: {
      licenseKey: key,
      license: license ?? sameLicense?.license ?? null,
      machineBound: sameLicense?.machineBound ?? false,
      machineFingerprint: sameLicense?.machineFingerprint ?? null,
    },
    licenses: bounded({ ...file.licenses, [licenseId]: memory }, licenseId),
    serverTime: file.serverTime,
  };
}

/** clearCache(): the key goes; what the machine learnt of its license stays. */
export function withoutKey(file: CacheFile): CacheFile {
  return file === EMPTY_FILE ? file : { ...file, current: null };
}

/**
 * At most MEMORY_LIMIT licenses; past it the oldest stored are forgotten first, but never the
 * current one and never one with a revocation or expiry on record (forging keys to push a
 * revocation out of the file must not work).
 */
function bounded(licenses: Record<string, LicenseMemory>, keep: string): Record<string, LicenseMemory> {
  const ids = Object.keys(licenses);
  if (ids.length <= MEMORY_LIMIT) return licenses;
  const pinned = (id: string) => id === keep || licenses[id]!.condemned !== undefined || condemnedAnswer(licenses[id]!.answer);
  const forgettable = ids.filter((id) => !pinned(id)).sort((a, b) => licenses[a]!.firstStoredAt - licenses[b]!.firstStoredAt);
  const drop = new Set(forgettable.slice(0, ids.length - MEMORY_LIMIT));
  return Object.fromEntries(Object.entries(licenses).filter(([id]) => !drop.has(id)));
}

/** Unverified on purpose: used only to keep an entry, never to believe it. */
function condemnedAnswer(answer: StoredAnswer | null): boolean {
  if (!answer) return false;
  try {
    return condemns(onlineVerdict(JSON.parse(answer.text)));
  } catch {
    return false;
  }
}
