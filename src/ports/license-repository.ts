import type { License, StoredLicenseStatus } from '../domain/license.ts';

/** What online validation needs, read by the digest of the key: the hot path. */
export interface LicenseState {
  id: string;
  developerId: string;
  storedStatus: StoredLicenseStatus;
  features: string[];
  expiresAt: number | null;
  machineFingerprint: string | null;
}

export interface LicenseRepository {
  /**
   * Stores a new license. `origin` ties it to what paid for it: at most one license per checkout
   * session or purchase (a second one throws DomainError `conflict`).
   */
  create(license: License, keyHash: string, origin?: { checkoutSessionId?: string; purchaseId?: string }): Promise<void>;
  findByCheckoutSession(checkoutSessionId: string): Promise<License | null>;
  /** At most one license per terminal purchase (a second create throws DomainError `conflict`). */
  findByPurchase(purchaseId: string): Promise<License | null>;
  /** The customer's licenses, across developers, oldest first. */
  listByCustomer(customerId: string): Promise<License[]>;
  findById(id: string): Promise<License | null>;
  findStateByKeyHash(keyHash: string): Promise<LicenseState | null>;
  findStateById(id: string): Promise<LicenseState | null>;
  /**
   * Binds only if still unbound (a conditional update), then returns the fingerprint the license
   * is bound to now: the caller's when it won, the winner's when another request bound first.
   */
  bindIfUnbound(id: string, fingerprint: string, at: number): Promise<string | null>;
  unbind(id: string): Promise<void>;
  setStatus(id: string, status: StoredLicenseStatus): Promise<void>;
  /**
   * One developer's licenses, newest first (issuedAt, then id, both descending), each with its
   * customer's e-mail. Another developer's licenses are never in it.
   */
  listByDeveloper(developerId: string, query: LicenseListQuery): Promise<LicensePage>;
}

/** A license as its developer lists it: with the e-mail of the customer who holds it. */
export type DeveloperLicense = License & { customerEmail: string };

export interface LicenseListQuery {
  limit: number;
  /** Where the previous page ended (its last license): this page starts right after it. */
  after?: { issuedAt: number; id: string };
  productId?: string;
  /** Normalized (trimmed, lower case) as customers' e-mails are stored: an exact match. */
  customerEmail?: string;
}

export interface LicensePage {
  data: DeveloperLicense[];
  hasMore: boolean;
}
