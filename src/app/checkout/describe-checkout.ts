import { checkoutStatus, type CheckoutSession, type CheckoutStatus } from '../../domain/checkout-session.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { Product } from '../../domain/product.ts';
import type { Deps } from '../../ports/deps.ts';

/** What a hosted payment page shows: who sells what, the session, and where it stands now. */
export async function describeCheckout(
  deps: Pick<Deps, 'clock' | 'checkouts' | 'products' | 'developers'>,
  sessionId: string,
): Promise<{ session: CheckoutSession; product: Product; sellerName: string; status: CheckoutStatus }> {
  const session = await deps.checkouts.findById(sessionId);
  const product = session && (await deps.products.get(session.developerId, session.productId));
  const seller = session && (await deps.developers.findById(session.developerId));
  if (!session || !product || !seller) throw new NotFoundError('checkout session');
  return { session, product, sellerName: seller.name, status: session.licenseId ? 'complete' : checkoutStatus(session, deps.clock.now()) };
}
