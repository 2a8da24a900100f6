import type { SavedCard } from '../../domain/card.ts';
import type { CheckoutSession } from '../../domain/checkout-session.ts';
import type { ConnectState, ProcessorAccount } from '../../domain/connect.ts';
import type { Customer } from '../../domain/customer.ts';
import type { ApiKeyRecord, Developer, SigningKey } from '../../domain/developer.ts';
import type { License } from '../../domain/license.ts';
import type { Product } from '../../domain/product.ts';

export interface LicenseRow extends License {
  keyHash: string;
  boundAt: number | null;
  checkoutSessionId: string | null;
}

export interface WebhookEventRow {
  type: string;
  receivedAt: number;
}

/** The rows of one memory store, shared by its repositories so foreign keys can be checked as SQLite does. */
export class MemoryTables {
  readonly developers = new Map<string, Developer>();
  readonly apiKeys = new Map<string, ApiKeyRecord>();
  readonly signingKeys = new Map<string, SigningKey>();
  readonly products = new Map<string, Product>();
  readonly customers = new Map<string, Customer>();
  readonly licenses = new Map<string, LicenseRow>();
  readonly checkouts = new Map<string, CheckoutSession>();
  readonly connectStates = new Map<string, ConnectState>();
  /** By developer id: one account each. */
  readonly processorAccounts = new Map<string, ProcessorAccount>();
  /** In insertion order, which breaks createdAt ties as SQLite's rowid does. */
  readonly savedCards = new Map<string, SavedCard>();
  readonly webhookEvents = new Map<string, WebhookEventRow>();
}

/** The storage error a real database would raise; callers see an error, never a half-applied write. */
export class ConstraintViolation extends Error {
  constructor(
    readonly kind: 'unique' | 'foreign_key',
    what: string,
  ) {
    super(`${kind === 'unique' ? 'UNIQUE' : 'FOREIGN KEY'} constraint failed: ${what}`);
    this.name = 'ConstraintViolation';
  }
}

export function requireUnique(taken: boolean, what: string): void {
  if (taken) throw new ConstraintViolation('unique', what);
}

export function requireRow(map: Map<string, unknown>, id: string, what: string): void {
  if (!map.has(id)) throw new ConstraintViolation('foreign_key', what);
}

/** Rows go in and come out as copies: no caller can reach into the store. */
export const copy = <T>(value: T): T => structuredClone(value);

export function copyOrNull<T>(value: T | undefined): T | null {
  return value === undefined ? null : structuredClone(value);
}
