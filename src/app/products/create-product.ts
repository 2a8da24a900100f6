import { InvalidRequestError } from '../../domain/errors.ts';
import { normalizeCurrency, normalizeFeatures, productProblem, type Product } from '../../domain/product.ts';
import type { Deps } from '../../ports/deps.ts';

export interface NewProductInput {
  name: string;
  price: number;
  currency: string;
  features?: string[];
  licenseDays?: number | null;
}

export function assertValidProduct(product: Product): Product {
  const problem = productProblem(product);
  if (problem) throw new InvalidRequestError(problem.message, problem.field);
  return product;
}

export async function createProduct(
  deps: Pick<Deps, 'clock' | 'ids' | 'products'>,
  developerId: string,
  input: NewProductInput,
): Promise<Product> {
  const now = deps.clock.now();
  const product = assertValidProduct({
    id: deps.ids.next('prod'),
    developerId,
    name: input.name.trim(),
    price: input.price,
    currency: normalizeCurrency(input.currency),
    features: normalizeFeatures(input.features),
    licenseDays: input.licenseDays ?? null,
    active: true,
    createdAt: now,
    updatedAt: now,
  });
  await deps.products.create(product);
  return product;
}
