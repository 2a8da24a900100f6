import { checkoutStatus, type CheckoutSession, type CheckoutStatus } from '../../domain/checkout-session.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { Product } from '../../domain/product.ts';
import type { Deps } from '../../ports/deps.ts';

/** What a hosted payment page shows: the session, its product, and where it stands now. */
export async function describeCheckout(
  deps: Pick<Deps, 'clock' | 'checkouts' | 'products'>,
  sessionId: string,
): Promise<{ session: CheckoutSession; product: Product; status: CheckoutStatus }> {
  const session = await deps.checkouts.findById(sessionId);
  const product = session && (await deps.products.get(session.developerId, session.productId));
  if (!session || !product) throw new NotFoundError('checkout session');
  return { session, product, status: session.licenseId ? 'complete' : checkoutStatus(session, deps.clock.now()) };
}
