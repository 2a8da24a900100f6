import { parseLicenseKey } from '../domain/license-key.ts';
import { FINAL_LICENSE_STATUSES, LICENSE_STATUSES, type FinalLicenseStatus } from '../domain/license.ts';
import { isOneOf } from '../domain/vocabulary.ts';
import type { InvalidReason, LicenseDetails } from './types.ts';

/**
 * A signed validation answer exactly as it came (docs/signed-answers.md): the Licensing-Signature
 * header, the body text it signs and the request's nonce. Kept whole so that it is verified again on
 * every load: an edited verdict or server time no longer verifies, and counts as no answer at all.
 */
export interface StoredAnswer {
  signature: string;
  text: string;
  nonce: string;
  /** This machine's clock when it came; never believed past the answer's own signed serverTime. */
  receivedAt: number;
}

/**
 * What this machine remembers of one license, whichever of its keys is stored and however often:
 * the first time it was stored (the offline allowance counts from there) and the server's last
 * signed verdict about it (a revoked or expired one stands until a newer one says otherwise).
 */
export interface LicenseMemory {
  firstStoredAt: number;
  answer: StoredAnswer | null;
  /** A revocation or expiry carried over from a cache of version 1, which kept no signature. */
  condemned?: FinalLicenseStatus;
  /** The last machine file of the license this client accepted, as it came (verified again on every load). */
  machineFile?: string;
}

/** The key in use and what the last calls learnt of its binding. */
export interface CurrentKey {
  licenseKey: string;
  license: LicenseDetails | null;
  machineBound: boolean;
  machineFingerprint: string | null;
}

/** The file: the key in use (none after clearCache), the memory of every license stored here, the latest server time. */
export interface CacheFile {
  current: CurrentKey | null;
  licenses: Record<string, LicenseMemory>;
  /**
   * The highest server time a signed answer carried (docs/signed-answers.md): a system clock far
   * behind it was set back. Only ever raised, and kept when a new key is stored or the key cleared.
   */
  serverTime: number | null;
  /**
   * The highest time this machine's clock showed when a machine file was accepted
   * (docs/machine-files.md): a machine that never reaches the server still notices its clock set back.
   */
  seenAt?: number;
}

/** The record the checks work with: the current key with its license's memory, verified (memory.ts). */
export interface CacheRecord {
  licenseKey: string;
  /** The license the key names (its claims' id); its memory is kept under it. */
  licenseId: string;
  /** The first time this license was stored on this machine (the offline allowance of a never-refreshed key counts from here). */
  storedAt: number;
  /** When the server last gave a verdict, valid or not (from the verified answer); drives the 24-hour refresh. */
  refreshedAt: number | null;
  /** When the server last said valid (from the verified answer); bounds maxOfflineDays. */
  lastValidAt: number | null;
  license: LicenseDetails | null;
  machineBound: boolean;
  machineFingerprint: string | null;
  /** The last online verdict: null before any, otherwise believed until the server says otherwise. */
  verdict: { valid: true } | { valid: false; reason: InvalidReason } | null;
  /** The signed answer the verdict comes from; null = this license never had one here (or it did not verify). */
  answer: StoredAnswer | null;
  /**
   * What that verified answer says the license holds (a refusal: nothing) and its signed server
   * time: one of the sources has() reads (entitlements.ts). Absent or null = no such evidence.
   */
  heard?: { features: readonly string[]; serverTime: number } | null;
  /**
   * The last machine file of this license this client accepted (docs/machine-files.md), verified
   * again when read: what it holds, signed as of its issue time, until its expiry. Another source has() reads.
   */
  machineFile?: { text: string; features: readonly string[]; issuedAt: number; expiresAt: number } | null;
  serverTime: number | null;
  /** CacheFile.seenAt: the clock's highest reading when a machine file was accepted; check() distrusts a clock set back behind it as behind serverTime. */
  seenAt?: number;
}

export interface CacheStore {
  /** Never throws for a missing or unreadable record: that is an empty cache. */
  read(): Promise<string | null>;
  write(text: string): Promise<void>;
  remove(): Promise<void>;
}

export const CACHE_FILE = 'license.json';
const VERSION = 2;
/** Licenses remembered at most; past it the oldest that no revocation or expiry pins are forgotten. */
export const MEMORY_LIMIT = 32;

export const EMPTY_FILE: CacheFile = { current: null, licenses: {}, serverTime: null };

export function serialize(file: CacheFile): string {
  return JSON.stringify({ version: VERSION, ...file }, null, 2);
}

/** Anything that is not a file this version (or version 1) wrote is an empty cache. */
export function deserialize(text: string | null): CacheFile {
  if (!text) return EMPTY_FILE;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return EMPTY_FILE;
  }
  if (!isObject(value)) return EMPTY_FILE;
  if (value.version === 1) return fromVersion1(value);
  if (value.version !== VERSION) return EMPTY_FILE;
  const licenses: Record<string, LicenseMemory> = {};
  if (isObject(value.licenses)) {
    for (const [id, memory] of Object.entries(value.licenses)) {
      const read = memoryOf(memory);
      if (read) licenses[id] = read;
    }
  }
  const seenAt = num(value.seenAt);
  return { current: currentOf(value.current), licenses, serverTime: num(value.serverTime), ...(seenAt !== null && { seenAt }) };
}

function currentOf(value: unknown): CurrentKey | null {
  if (!isObject(value) || typeof value.licenseKey !== 'string' || value.licenseKey === '') return null;
  return {
    licenseKey: value.licenseKey,
    license: isLicense(value.license) ? value.license : null,
    machineBound: value.machineBound === true,
    machineFingerprint: typeof value.machineFingerprint === 'string' ? value.machineFingerprint : null,
  };
}

function memoryOf(value: unknown): LicenseMemory | null {
  if (!isObject(value)) return null;
  const firstStoredAt = num(value.firstStoredAt);
  if (firstStoredAt === null) return null;
  const condemned = isOneOf(FINAL_LICENSE_STATUSES, value.condemned) ? { condemned: value.condemned } : {};
  // The kept machine file is text here; memory.ts believes it only once it verifies again.
  const machineFile = typeof value.machineFile === 'string' && value.machineFile.length <= 16_384 ? { machineFile: value.machineFile } : {};
  return { firstStoredAt, answer: answerOf(value.answer), ...condemned, ...machineFile };
}

function answerOf(value: unknown): StoredAnswer | null {
  if (!isObject(value)) return null;
  const { signature, text, nonce } = value;
  const receivedAt = num(value.receivedAt);
  if (typeof signature !== 'string' || typeof text !== 'string' || typeof nonce !== 'string' || receivedAt === null) return null;
  return { signature, text, nonce, receivedAt };
}

/**
 * A version-1 file kept its verdict unsigned: the key stays, a revoked or expired verdict still
 * counts against it, and anything else is asked again.
 */
function fromVersion1(value: Record<string, unknown>): CacheFile {
  const current = currentOf(value);
  const parsed = current && parseLicenseKey(current.licenseKey);
  const id = parsed?.ok ? parsed.key.claims.id : null;
  if (!current || !id) return { ...EMPTY_FILE, current, serverTime: num(value.serverTime) };
  const verdict = isObject(value.verdict) && value.verdict.valid === false ? value.verdict.reason : null;
  const condemned = isOneOf(FINAL_LICENSE_STATUSES, verdict) ? { condemned: verdict } : {};
  return { current, licenses: { [id]: { firstStoredAt: num(value.storedAt) ?? 0, answer: null, ...condemned } }, serverTime: num(value.serverTime) };
}

export function isLicense(value: unknown): value is LicenseDetails {
  return (
    isObject(value) &&
    typeof value.id === 'string' &&
    typeof value.productId === 'string' &&
    (value.productName === undefined || typeof value.productName === 'string') &&
    Array.isArray(value.features) &&
    value.features.every((f) => typeof f === 'string') &&
    isOneOf(LICENSE_STATUSES, value.status) &&
    num(value.issuedAt) !== null &&
    (value.expiresAt === null || num(value.expiresAt) !== null)
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export class MemoryStore implements CacheStore {
  private text: string | null = null;
  async read() {
    return this.text;
  }
  async write(text: string) {
    this.text = text;
  }
  async remove() {
    this.text = null;
  }
}

/** In a browser: one localStorage entry per application. */
export class LocalStorageStore implements CacheStore {
  constructor(
    private readonly storage: Storage,
    private readonly key: string,
  ) {}
  async read() {
    try {
      return this.storage.getItem(this.key);
    } catch {
      return null;
    }
  }
  async write(text: string) {
    this.storage.setItem(this.key, text);
  }
  async remove() {
    this.storage.removeItem(this.key);
  }
}
