import { normalizeEmail } from '../../domain/developer.ts';
import { InvalidRequestError } from '../../domain/errors.ts';
import { viewLicense, type LicenseView } from '../../domain/license.ts';
import type { Deps } from '../../ports/deps.ts';
import type { LicenseListQuery } from '../../ports/license-repository.ts';

export const LICENSE_LIST_LIMIT = { default: 20, max: 100 };

export interface ListLicensesInput {
  limit?: number;
  startingAfter?: string;
  productId?: string;
  /** Exact (case-insensitive) e-mail of the customer. */
  email?: string;
}

export type DeveloperLicenseView = LicenseView & { customerEmail: string };

export interface DeveloperLicenseList {
  data: DeveloperLicenseView[];
  hasMore: boolean;
}

/** A developer's licenses, newest first, optionally of one product or one customer's e-mail. */
export async function listLicenses(
  deps: Pick<Deps, 'clock' | 'licenses'>,
  developerId: string,
  input: ListLicensesInput,
): Promise<DeveloperLicenseList> {
  const query = await queryOf(deps, developerId, input);
  const page = await deps.licenses.listByDeveloper(developerId, query);
  const now = deps.clock.now();
  return {
    data: page.data.map((license) => ({ ...viewLicense(license, now), customerEmail: license.customerEmail })),
    hasMore: page.hasMore,
  };
}

async function queryOf(deps: Pick<Deps, 'licenses'>, developerId: string, input: ListLicensesInput): Promise<LicenseListQuery> {
  const limit = input.limit ?? LICENSE_LIST_LIMIT.default;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > LICENSE_LIST_LIMIT.max) {
    throw new InvalidRequestError(`limit must be a whole number from 1 to ${LICENSE_LIST_LIMIT.max}.`, 'limit', 'query');
  }
  const query: LicenseListQuery = { limit };
  if (input.startingAfter !== undefined) {
    // Another developer's license is as unknown here as a made-up id.
    const cursor = await deps.licenses.findById(input.startingAfter);
    if (!cursor || cursor.developerId !== developerId) {
      throw new InvalidRequestError('startingAfter is not one of your licenses.', 'startingAfter', 'query');
    }
    query.after = { issuedAt: cursor.issuedAt, id: cursor.id };
  }
  if (input.productId !== undefined) query.productId = input.productId;
  if (input.email !== undefined) {
    const email = normalizeEmail(input.email);
    if (!email) throw new InvalidRequestError('email must be a whole e-mail address (the search is exact, case-insensitive).', 'email', 'query');
    query.customerEmail = email;
  }
  return query;
}
