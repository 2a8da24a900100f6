import type { Activation, ActivationSeen } from '../domain/activation.ts';
import type { License, LicenseStatus, StoredLicenseStatus } from '../domain/license.ts';
import type { OutboxMail } from './mail-repository.ts';
import type { Page } from './page.ts';

/** What online validation needs, read by the digest of the key: the hot path. */
export interface LicenseState {
  id: string;
  developerId: string;
  /** Read with the rest, so a check of the product scope costs no second query. */
  productId: string;
  storedStatus: StoredLicenseStatus;
  features: string[];
  expiresAt: number | null;
  /** null = unlimited. */
  maxMachines: number | null;
  /** Every activation's machine, in no particular order. */
  activations: ActivationSeen[];
}

/** A new activation: the caller picks the id (`act_…`) and the time. */
/** A machine seen by a validation at `at`: what the lastSeenAt batch writes. */
export interface SeenMachine {
  licenseId: string;
  machineFingerprint: string;
  at: number;
}

export interface NewActivation {
  id: string;
  machineFingerprint: string;
  name: string | null;
  at: number;
  /**
   * The machine's fingerprint by the formula clients used before (docs/machine-files.md, "Migration"):
   * when `machineFingerprint` has no activation and this one has, that activation is moved to
   * `machineFingerprint` (same id, same slot, not counted as a deactivation) and answered `existing`.
   */
  legacyFingerprint?: string;
}

export type ActivateOutcome =
  | { kind: 'created' | 'existing'; activation: Activation }
  /** No free slot: the license's activations as they are now, oldest first. */
  | { kind: 'full'; maxMachines: number | null; activations: Activation[] }
  /** A trial license, and this machine already had a trial of the product (another license claimed it). */
  | { kind: 'trial_used' }
  | { kind: 'missing' };

/** Which activation: by the machine (the holder knows it) or by id (the seller and the customer do). */
export type ActivationSelector = { machineFingerprint: string } | { activationId: string };

/** The holder's quota, checked by the store in the same transaction as the removal. */
export interface DeactivationQuota {
  limit: number;
  now: number;
  windowMs: number;
}

export type DeactivateOutcome =
  | { kind: 'removed'; activation: Activation }
  | { kind: 'missing' }
  /** Over the quota: nothing removed; the next deactivation is allowed at `retryAt`. */
  | { kind: 'quota_exhausted'; retryAt: number };

export interface LicenseRepository {
  /**
   * Stores a new license. `origin` ties it to what paid for it: at most one license per checkout
   * session or purchase (a second one throws DomainError `conflict`). `mail` (the receipt) is queued
   * in the same transaction: both are stored or neither.
   */
  create(license: License, keyHash: string, origin?: { checkoutSessionId?: string; purchaseId?: string }, mail?: OutboxMail): Promise<void>;
  findByCheckoutSession(checkoutSessionId: string): Promise<License | null>;
  /** At most one license per terminal purchase (a second create throws DomainError `conflict`). */
  findByPurchase(purchaseId: string): Promise<License | null>;
  /** The customer's licenses, across developers, oldest first. */
  listByCustomer(customerId: string): Promise<License[]>;
  findById(id: string): Promise<License | null>;
  findStateByKeyHash(keyHash: string): Promise<LicenseState | null>;
  findStateById(id: string): Promise<LicenseState | null>;
  /**
   * Takes a slot for the machine if it has none and one is free, all in one store transaction (the
   * license row locked where the store has row locks): of any number of concurrent first
   * activations, exactly as many as there are free slots win. A known machine gets its activation.
   */
  activate(licenseId: string, activation: NewActivation): Promise<ActivateOutcome>;
  /** The license's activations, oldest first (createdAt, then id). */
  listActivations(licenseId: string): Promise<Activation[]>;
  /** Records that the machine was seen at `at` (validation calls it at most once per LAST_SEEN_REFRESH_MS). */
  touchActivation(licenseId: string, machineFingerprint: string, at: number): Promise<void>;
  /** The same for many machines in one write (the batched lastSeenAt flush); each moves forward only. */
  touchActivations(seen: readonly SeenMachine[]): Promise<void>;
  /**
   * Removes one activation. With a quota (the holder's), the removal is logged and refused once
   * `limit` removals happened within the window, checked in the same transaction.
   */
  deactivate(licenseId: string, which: ActivationSelector, quota?: DeactivationQuota): Promise<DeactivateOutcome>;
  /** Removes every activation (the seller's unbind; not counted against the holder's quota). */
  unbind(id: string): Promise<void>;
  /** Retention: deletes up to `limit` logged holder deactivations made before `before`; returns how many. */
  deleteDeactivationsBefore(before: number, limit: number): Promise<number>;
  /**
   * Writes the fields `patch` names (undefined = unchanged) and the event the change announces, in
   * one store transaction; with `expect`, only while the license still has those values (compare
   * and swap: of concurrent updates expecting the same state one wins). The license as updated, or
   * null when there is none or it no longer has the expected values. A lowered maxMachines keeps
   * the existing activations; new ones wait for a free slot.
   */
  update(id: string, patch: LicensePatch, expect?: LicensePatch): Promise<License | null>;
  /**
   * Re-signs a license in place (same id, same activations): a renewal, or a trial converted by a
   * purchase. Applied only while the license's current key digest is `expectKeyHash` (compare and
   * swap: of concurrent reissues one wins, the others get null and re-read). The replaced key is
   * retired, not forgotten: online validation still recognizes it and answers with the current key.
   */
  reissue(licenseId: string, change: LicenseReissue): Promise<License | null>;
  /**
   * One developer's licenses, newest first (issuedAt, then id, both descending), each with its
   * customer's e-mail. Another developer's licenses are never in it.
   */
  listByDeveloper(developerId: string, query: LicenseListQuery): Promise<LicensePage>;
}

/**
 * What `update` may change: every field but those fixed at issue, the machine (derived from
 * activations) and what the key is signed over (changed only by `reissue`, with a new key).
 */
export type LicensePatch = Partial<Omit<License, 'id' | 'developerId' | 'productId' | 'customerId' | 'issuedAt' | 'machineFingerprint' | 'licenseKey' | 'features' | 'expiresAt' | 'trial'>>;

export interface LicenseReissue {
  expectKeyHash: string;
  licenseKey: string;
  keyHash: string;
  expiresAt: number | null;
  features: string[];
  /** A trial converted by what paid for it: trial becomes false and the origin is recorded. */
  convert?: { checkoutSessionId?: string; purchaseId?: string };
  /** A trial taken over by a subscription's trial: the origin is recorded, it stays a trial (same guard as convert). */
  adopt?: { checkoutSessionId?: string; purchaseId?: string };
  /** Set when a subscription takes the license over (undefined = unchanged). */
  subscriptionId?: string | null;
  /** The receipt (a renewal, a conversion): queued in the reissue's transaction, only when it wins. */
  mail?: OutboxMail;
  at: number;
}

/** A license as its developer lists it: with the e-mail of the customer who holds it. */
export type DeveloperLicense = License & { customerEmail: string };

export interface LicenseListQuery {
  limit: number;
  /**
   * Where the previous page ended (its last license): this page starts right after it, in the
   * list's order (issuedAt, id; for status expired: expiresAt, id; absent or null expiresAt = never).
   */
  after?: { issuedAt: number; expiresAt?: number | null; id: string };
  productId?: string;
  /** Normalized (trimmed, lower case) as customers' e-mails are stored: an exact match. */
  customerEmail?: string;
  /** The status as of `now` (expired and active are derived from expiresAt, as validation does). */
  status?: { is: LicenseStatus; now: number };
  /** Issued at or after this millisecond. */
  issuedFrom?: number;
  /** Issued strictly before this millisecond. */
  issuedBefore?: number;
  trial?: boolean;
}

export type LicensePage = Page<DeveloperLicense>;
