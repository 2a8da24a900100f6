import { normalizeEmail } from '../../domain/developer.ts';
import { InvalidRequestError } from '../../domain/errors.ts';
import { licenseStatus, viewDeveloperLicense, type DeveloperLicenseView, type LicenseStatus } from '../../domain/license.ts';
import type { Deps } from '../../ports/deps.ts';
import type { LicenseListQuery } from '../../ports/license-repository.ts';
import type { NewestFirstQuery, Page } from '../../ports/page.ts';

export const LICENSE_LIST_LIMIT = { default: 20, max: 100 };

export interface ListLicensesInput {
  limit?: number;
  startingAfter?: string;
  productId?: string;
  /** Exact (case-insensitive) e-mail of the customer. */
  email?: string;
  status?: LicenseStatus;
  /** Issued at or after this millisecond (inclusive). */
  createdAfter?: number;
  /** Issued before this millisecond (exclusive): [createdAfter, createdBefore) tiles a timeline. */
  createdBefore?: number;
  trial?: boolean;
}

export type DeveloperLicenseList = Page<DeveloperLicenseView>;

/** A developer's licenses, newest first, filtered by product, customer, status, trial and issue time. */
export async function listLicenses(
  deps: Pick<Deps, 'clock' | 'licenses'>,
  developerId: string,
  input: ListLicensesInput,
): Promise<DeveloperLicenseList> {
  const now = deps.clock.now();
  const query = await queryOf(deps, developerId, input, now);
  const page = await deps.licenses.listByDeveloper(developerId, query);
  return {
    data: page.data.map((license) => viewDeveloperLicense(license, licenseStatus(license, now))),
    hasMore: page.hasMore,
  };
}

/** A page size within 1..max (default when absent), or a 400 naming `limit`. */
export function pageLimit(limit: number | undefined, bounds: { default: number; max: number }): number {
  const value = limit ?? bounds.default;
  if (!Number.isSafeInteger(value) || value < 1 || value > bounds.max) {
    throw new InvalidRequestError(`limit must be a whole number from 1 to ${bounds.max}.`, 'limit', 'query');
  }
  return value;
}

/**
 * Where a newest-first page resumes: after the row startingAfter named, when it is the caller's own
 * (another seller's row is as unknown as a made-up id), or a 400 naming startingAfter.
 */
export function resumeAfter(row: { createdAt: number; id: string } | null, what: string): { createdAt: number; id: string } {
  if (!row) throw new InvalidRequestError(`startingAfter is not one of your ${what}.`, 'startingAfter', 'query');
  return { createdAt: row.createdAt, id: row.id };
}

/** What a seller's newest-first list (orders, subscriptions) is asked: a page window, a product and a status. */
export interface NewestFirstInput<Status extends string> {
  limit?: number;
  startingAfter?: string;
  productId?: string;
  status?: Status;
}

/**
 * The page window and the filters every newest-first list shares; `find` reads the startingAfter
 * entry, null when it is not the caller's (`what` names the list in the refusal).
 */
export async function newestFirstQuery<Status extends string>(
  input: NewestFirstInput<Status>,
  bounds: { default: number; max: number },
  what: string,
  find: (id: string) => Promise<{ createdAt: number; id: string } | null>,
): Promise<NewestFirstQuery<Status>> {
  const query: NewestFirstQuery<Status> = { limit: pageLimit(input.limit, bounds) };
  if (input.startingAfter !== undefined) query.after = resumeAfter(await find(input.startingAfter), what);
  if (input.productId !== undefined) query.productId = input.productId;
  if (input.status !== undefined) query.status = input.status;
  return query;
}

/** A time bound in Unix milliseconds, or a 400 naming the field. */
export function timeBound(value: number | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 0) throw new InvalidRequestError(`${field} must be a time in Unix milliseconds.`, field, 'query');
  return value;
}

/** The exact e-mail filter, normalized as stored, or a 400 naming the field. */
export function emailFilter(email: string): string {
  const normalized = normalizeEmail(email);
  if (!normalized) throw new InvalidRequestError('email must be a whole e-mail address (the search is exact, case-insensitive).', 'email', 'query');
  return normalized;
}

async function queryOf(deps: Pick<Deps, 'licenses'>, developerId: string, input: ListLicensesInput, now: number): Promise<LicenseListQuery> {
  const query: LicenseListQuery = { limit: pageLimit(input.limit, LICENSE_LIST_LIMIT) };
  if (input.startingAfter !== undefined) {
    // Another developer's license is as unknown here as a made-up id.
    const cursor = await deps.licenses.findById(input.startingAfter);
    if (!cursor || cursor.developerId !== developerId) {
      throw new InvalidRequestError('startingAfter is not one of your licenses.', 'startingAfter', 'query');
    }
    query.after = { issuedAt: cursor.issuedAt, expiresAt: cursor.expiresAt, id: cursor.id };
  }
  if (input.productId !== undefined) query.productId = input.productId;
  if (input.email !== undefined) query.customerEmail = emailFilter(input.email);
  if (input.status !== undefined) query.status = { is: input.status, now };
  if (input.trial !== undefined) query.trial = input.trial;
  const issuedFrom = timeBound(input.createdAfter, 'createdAfter');
  const issuedBefore = timeBound(input.createdBefore, 'createdBefore');
  if (issuedFrom !== undefined) query.issuedFrom = issuedFrom;
  if (issuedBefore !== undefined) query.issuedBefore = issuedBefore;
  return query;
}
