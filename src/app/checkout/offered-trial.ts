import type { Product } from '../../domain/product.ts';
import { subscriptionTrial, type SubscriptionTrial } from '../../domain/trial.ts';
import type { Deps } from '../../ports/deps.ts';

/**
 * The trial a checkout of `product` offers the buyer of `email` at `now` (subscriptionTrial): with no
 * e-mail known yet, a fresh trial, which the buyer's own running trial replaces once they are known.
 */
export async function offeredTrial(deps: Pick<Deps, 'customers' | 'licenses'>, product: Product, email: string | null, now: number): Promise<SubscriptionTrial | null> {
  if (product.interval === null || product.trialDays === null) return null;
  const customer = email ? await deps.customers.findByEmail(email) : null;
  return subscriptionTrial(product, customer ? await deps.licenses.listByCustomer(customer.id) : [], now);
}
