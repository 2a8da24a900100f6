import { InvalidRequestError } from '../../domain/errors.ts';
import { licenseStatus, type LicenseStatus } from '../../domain/license.ts';
import type { CustomerListQuery } from '../../ports/customer-directory.ts';
import type { Deps } from '../../ports/deps.ts';
import { pageLimit } from '../licenses/list-licenses.ts';

export const CUSTOMER_LIST_LIMIT = { default: 20, max: 100 };
/** Licenses shown per customer; the rest are one e-mail filter away on the license list. */
export const LICENSES_PER_CUSTOMER = 10;

export interface ListCustomersInput {
  limit?: number;
  startingAfter?: string;
  /** The start of the e-mail (case-insensitive); a whole address works too. */
  email?: string;
}

export interface CustomerView {
  id: string;
  email: string;
  firstSeenAt: number;
  licenses: { id: string; productId: string; status: LicenseStatus; issuedAt: number; expiresAt: number | null; trial: boolean }[];
  moreLicenses: boolean;
}

/** A seller's customers with their licenses from this seller only: newest first, or by e-mail when searching. */
export async function listCustomers(
  deps: Pick<Deps, 'clock' | 'customerDirectory'>,
  developerId: string,
  input: ListCustomersInput,
): Promise<{ data: CustomerView[]; hasMore: boolean }> {
  const query: CustomerListQuery = { limit: pageLimit(input.limit, CUSTOMER_LIST_LIMIT), licensesPerCustomer: LICENSES_PER_CUSTOMER };
  if (input.email !== undefined) {
    const prefix = input.email.trim().toLowerCase();
    if (prefix.length === 0 || prefix.length > 254) throw new InvalidRequestError('email must be 1 to 254 characters: the start of an e-mail address.', 'email', 'query');
    query.emailPrefix = prefix;
  }
  if (input.startingAfter !== undefined) {
    // Someone else's customer is as unknown here as a made-up id.
    const after = await deps.customerDirectory.find(developerId, input.startingAfter);
    if (!after) throw new InvalidRequestError('startingAfter is not one of your customers.', 'startingAfter', 'query');
    query.after = after;
  }
  const page = await deps.customerDirectory.list(developerId, query);
  const now = deps.clock.now();
  return {
    data: page.data.map((c) => ({
      id: c.customerId,
      email: c.email,
      firstSeenAt: c.firstSeenAt,
      licenses: c.licenses.map(({ storedStatus, ...l }) => ({ ...l, status: licenseStatus({ storedStatus, expiresAt: l.expiresAt }, now) })),
      moreLicenses: c.moreLicenses,
    })),
    hasMore: page.hasMore,
  };
}
