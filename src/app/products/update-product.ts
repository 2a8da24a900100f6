import { InvalidRequestError, NotFoundError } from '../../domain/errors.ts';
import { CHANGEABLE, applyProductChanges, normalizeCurrency, type Product, type ProductChanges } from '../../domain/product.ts';
import { normalizeEntitlements } from '../../domain/entitlements.ts';
import type { Deps } from '../../ports/deps.ts';
import { assertValidProduct } from './create-product.ts';

/** Issued licenses keep the terms they were issued with: only future sales see the change. */
export async function updateProduct(
  deps: Pick<Deps, 'clock' | 'products'>,
  developerId: string,
  id: string,
  changes: ProductChanges,
): Promise<Product> {
  if (!CHANGEABLE.some((field) => changes[field] !== undefined)) {
    throw new InvalidRequestError(`Nothing to change: give at least one of ${CHANGEABLE.join(', ')}.`);
  }
  const current = await deps.products.get(developerId, id);
  if (!current) throw new NotFoundError('product');
  const normalized: ProductChanges = {
    ...changes,
    ...(changes.name !== undefined && { name: changes.name.trim() }),
    ...(changes.features !== undefined && { features: normalizeEntitlements(changes.features) }),
    ...(changes.currency !== undefined && { currency: normalizeCurrency(changes.currency) }),
  };
  const next = assertValidProduct(applyProductChanges(current, normalized, deps.clock.now()));
  await deps.products.update(next);
  return next;
}
