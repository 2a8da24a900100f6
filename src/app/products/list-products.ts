import { InvalidRequestError } from '../../domain/errors.ts';
import type { Deps } from '../../ports/deps.ts';
import type { ProductPage } from '../../ports/product-repository.ts';

export const LIST_LIMIT = { default: 20, max: 100 };

export async function listProducts(
  deps: Pick<Deps, 'products'>,
  developerId: string,
  page: { limit?: number; startingAfter?: string },
): Promise<ProductPage> {
  if (page.startingAfter !== undefined && !(await deps.products.get(developerId, page.startingAfter))) {
    throw new InvalidRequestError('startingAfter is not one of your products.', 'startingAfter', 'query');
  }
  const limit = page.limit ?? LIST_LIMIT.default;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > LIST_LIMIT.max) {
    throw new InvalidRequestError(`limit must be a whole number from 1 to ${LIST_LIMIT.max}.`, 'limit', 'query');
  }
  return deps.products.list(developerId, { limit, startingAfter: page.startingAfter });
}
