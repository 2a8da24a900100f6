import { checkoutOffer, type CheckoutOffer } from '../../domain/checkout-offer.ts';
import { checkoutStatus, type CheckoutSession, type CheckoutStatus } from '../../domain/checkout-session.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { Product } from '../../domain/product.ts';
import type { Deps } from '../../ports/deps.ts';
import { offeredTrial } from './offered-trial.ts';

export interface CheckoutView {
  session: CheckoutSession;
  product: Product;
  sellerName: string;
  status: CheckoutStatus;
  /** What the buyer is offered if they pay now: price and interval, first charge and renewal, trial. */
  offer: CheckoutOffer;
}

/** What a hosted payment page shows: who sells what, on which terms, and where the session stands now. */
export async function describeCheckout(deps: Pick<Deps, 'clock' | 'checkouts' | 'products' | 'developers' | 'customers' | 'licenses'>, sessionId: string): Promise<CheckoutView> {
  const session = await deps.checkouts.findById(sessionId);
  const product = session && (await deps.products.get(session.developerId, session.productId));
  const seller = session && (await deps.developers.findById(session.developerId));
  if (!session || !product || !seller) throw new NotFoundError('checkout session');
  const now = deps.clock.now();
  const trial = await offeredTrial(deps, product, session.email, now);
  // The session's own price: what Pay charges, even if the product's changed since.
  const offer = checkoutOffer({ product: { ...product, price: session.amount, currency: session.currency }, sellerName: seller.name, now, trial, buyerUnknown: session.email === null });
  return { session, product, sellerName: seller.name, status: session.licenseId ? 'complete' : checkoutStatus(session, now), offer };
}
