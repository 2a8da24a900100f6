import { InvalidRequestError } from '../../domain/errors.ts';
import { DEFAULT_DEACTIVATIONS_PER_30_DAYS, DEFAULT_MAX_MACHINES } from '../../domain/activation.ts';
import { type BillingInterval, DEFAULT_GRACE_DAYS, normalizeCurrency, productProblem, type Product } from '../../domain/product.ts';
import { normalizeEntitlements } from '../../domain/entitlements.ts';
import { DEFAULT_LEASE_TERMS } from '../../domain/lease.ts';
import type { Deps } from '../../ports/deps.ts';

export interface NewProductInput {
  name: string;
  price: number;
  currency: string;
  features?: string[];
  licenseDays?: number | null;
  /** Default 1; null = unlimited. */
  maxMachines?: number | null;
  /** Default 3. */
  deactivationsPer30Days?: number;
  /** Default null (one-off). */
  interval?: BillingInterval | null;
  /** Default 3. */
  graceDays?: number;
  /** Default null (no trial). */
  trialDays?: number | null;
  /** Default null (no floating leases). */
  maxLeases?: number | null;
  /** Default 600. */
  leaseSeconds?: number;
  /** Default 0 (no borrowing). */
  maxBorrowHours?: number;
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
    features: normalizeEntitlements(input.features),
    licenseDays: input.licenseDays ?? null,
    maxMachines: input.maxMachines === undefined ? DEFAULT_MAX_MACHINES : input.maxMachines,
    deactivationsPer30Days: input.deactivationsPer30Days ?? DEFAULT_DEACTIVATIONS_PER_30_DAYS,
    interval: input.interval ?? null,
    graceDays: input.graceDays ?? DEFAULT_GRACE_DAYS,
    trialDays: input.trialDays ?? null,
    maxLeases: input.maxLeases ?? DEFAULT_LEASE_TERMS.maxLeases,
    leaseSeconds: input.leaseSeconds ?? DEFAULT_LEASE_TERMS.leaseSeconds,
    maxBorrowHours: input.maxBorrowHours ?? DEFAULT_LEASE_TERMS.maxBorrowHours,
    active: true,
    createdAt: now,
    updatedAt: now,
  });
  await deps.products.create(product);
  return product;
}
