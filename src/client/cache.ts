import { LICENSE_STATUSES } from '../domain/license.ts';
import { isOneOf } from '../domain/vocabulary.ts';
import type { InvalidReason, LicenseDetails } from './types.ts';

/** The one record the client keeps: the key and what the server last said about it. */
export interface CacheRecord {
  licenseKey: string;
  /** When the key was stored (the offline allowance of a never-refreshed key counts from here). */
  storedAt: number;
  /** Last time the server gave a verdict, valid or not; drives the 24-hour refresh. */
  refreshedAt: number | null;
  /** Last time the server said valid; bounds maxOfflineDays. */
  lastValidAt: number | null;
  license: LicenseDetails | null;
  machineBound: boolean;
  machineFingerprint: string | null;
  /** The last online verdict: null before any, otherwise believed until the server says otherwise. */
  verdict: { valid: true } | { valid: false; reason: InvalidReason } | null;
  /**
   * The highest server time a signed answer carried (docs/signed-answers.md): a system clock far
   * behind it was set back. Kept when a new key is stored.
   */
  serverTime: number | null;
}

export interface CacheStore {
  /** Never throws for a missing or unreadable record: that is an empty cache. */
  read(): Promise<string | null>;
  write(text: string): Promise<void>;
  remove(): Promise<void>;
}

export const CACHE_FILE = 'license.json';
const VERSION = 1;

export function newRecord(licenseKey: string, now: number, license: LicenseDetails | null, serverTime: number | null = null): CacheRecord {
  return { licenseKey, storedAt: now, refreshedAt: null, lastValidAt: null, license, machineBound: false, machineFingerprint: null, verdict: null, serverTime };
}

export function serialize(record: CacheRecord): string {
  return JSON.stringify({ version: VERSION, ...record }, null, 2);
}

/** Anything that is not a record this version wrote is an empty cache. */
export function deserialize(text: string | null): CacheRecord | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value) || value.version !== VERSION || typeof value.licenseKey !== 'string' || value.licenseKey === '') return null;
  return {
    licenseKey: value.licenseKey,
    storedAt: num(value.storedAt) ?? 0,
    refreshedAt: num(value.refreshedAt),
    lastValidAt: num(value.lastValidAt),
    license: isLicense(value.license) ? value.license : null,
    machineBound: value.machineBound === true,
    machineFingerprint: typeof value.machineFingerprint === 'string' ? value.machineFingerprint : null,
    verdict: verdictOf(value.verdict),
    serverTime: num(value.serverTime),
  };
}

function verdictOf(value: unknown): CacheRecord['verdict'] {
  if (!isObject(value)) return null;
  if (value.valid === true) return { valid: true };
  if (value.valid === false && typeof value.reason === 'string') return { valid: false, reason: value.reason as InvalidReason };
  return null;
}

function isLicense(value: unknown): value is LicenseDetails {
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
