import type { Activation } from '../../domain/activation.ts';
import type { SavedCard } from '../../domain/card.ts';
import type { CheckoutSession } from '../../domain/checkout-session.ts';
import type { ConnectState, ProcessorAccount } from '../../domain/connect.ts';
import type { Customer } from '../../domain/customer.ts';
import type { ApiKeyRecord, Developer, SigningKey } from '../../domain/developer.ts';
import type { IdentityToken } from '../../domain/identity-token.ts';
import type { License } from '../../domain/license.ts';
import type { LoginFailures, OtpChallenge } from '../../domain/otp-challenge.ts';
import type { Product } from '../../domain/product.ts';
import type { Purchase } from '../../domain/purchase.ts';
import type { OutboxMessage } from '../../ports/sms-outbox-repository.ts';

export interface LicenseRow extends Omit<License, 'machineFingerprint'> {
  keyHash: string;
  checkoutSessionId: string | null;
  purchaseId: string | null;
  /** Oldest first. */
  activations: Activation[];
  /** When the holder deactivated a machine (the quota's log). */
  deactivatedAt: number[];
}

export interface OutboxRow extends OutboxMessage {
  /** SQLite's autoincrement: breaks sentAt ties, the later added first. */
  id: number;
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
  /** In insertion order, which breaks createdAt ties as SQLite's rowid does. */
  readonly otps = new Map<string, OtpChallenge>();
  /** By customer id. */
  readonly loginFailures = new Map<string, LoginFailures>();
  /** By token hash. */
  readonly identityTokens = new Map<string, IdentityToken>();
  readonly purchases = new Map<string, Purchase>();
  readonly smsOutbox: OutboxRow[] = [];
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
