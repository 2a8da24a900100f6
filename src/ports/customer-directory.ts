import type { StoredLicenseStatus } from '../domain/license.ts';
import type { Page } from './page.ts';

/** One of a seller's customers, as the directory orders them. */
export interface DirectoryEntry {
  customerId: string;
  email: string;
  /** When this seller first issued them a license. */
  firstSeenAt: number;
}

/** A license of that customer from this seller only. */
export interface CustomerLicenseSummary {
  id: string;
  productId: string;
  storedStatus: StoredLicenseStatus;
  issuedAt: number;
  expiresAt: number | null;
  trial: boolean;
}

export interface SellerCustomer extends DirectoryEntry {
  /** Newest first, at most `licensesPerCustomer` of them. */
  licenses: CustomerLicenseSummary[];
  /** More licenses than shown (list them with the license list's e-mail filter). */
  moreLicenses: boolean;
}

export interface CustomerListQuery {
  limit: number;
  licensesPerCustomer: number;
  /**
   * Normalized e-mail prefix. With it, customers come in e-mail order (byte-wise, ascending);
   * without it, newest first (firstSeenAt, then customer id, descending).
   */
  emailPrefix?: string;
  /** The last entry of the previous page: this page starts right after it, in the same order. */
  after?: DirectoryEntry;
}

export type CustomerPage = Page<SellerCustomer>;

/** A seller's customers: one entry per seller and customer, so a shared buyer appears to each seller apart. */
export interface CustomerDirectory {
  /** The customer as this seller knows them; null for anyone who never held one of the seller's licenses. */
  find(developerId: string, customerId: string): Promise<DirectoryEntry | null>;
  list(developerId: string, query: CustomerListQuery): Promise<CustomerPage>;
}

/** The exclusive upper bound of every string that starts with `prefix` (byte-wise, as the stores compare). */
export const prefixEnd = (prefix: string): string => `${prefix}\u{10FFFF}`;
