import { CHECKOUT_LIFETIME_MS, isRedirectUrl, type CheckoutSession } from '../../domain/checkout-session.ts';
import { checkoutOffer } from '../../domain/checkout-offer.ts';
import { normalizeEmail } from '../../domain/developer.ts';
import { DomainError, InvalidRequestError } from '../../domain/errors.ts';
import { onSale } from '../../domain/product.ts';
import type { Deps } from '../../ports/deps.ts';
import { offeredTrial } from './offered-trial.ts';

export interface StartCheckoutInput {
  productId: string;
  email?: string;
  successUrl?: string;
  cancelUrl?: string;
}

/** A hosted checkout on the seller's connected processor account, open for 30 minutes. */
export async function startCheckout(
  deps: Pick<Deps, 'clock' | 'ids' | 'products' | 'connections' | 'checkouts' | 'processor' | 'settings' | 'developers' | 'customers' | 'licenses'>,
  developerId: string,
  input: StartCheckoutInput,
): Promise<{ sessionId: string; checkoutUrl: string }> {
  for (const field of ['successUrl', 'cancelUrl'] as const) {
    const url = input[field];
    if (url !== undefined && !isRedirectUrl(url)) throw new InvalidRequestError(`${field} must be an absolute http(s) URL.`, field);
  }
  const email = input.email === undefined ? null : normalizeEmail(input.email);
  if (input.email !== undefined && !email) throw new InvalidRequestError('email is not a valid e-mail address.', 'email');
  const product = onSale(await deps.products.get(developerId, input.productId));
  const account = await deps.connections.accountOf(developerId);
  if (!account) throw new DomainError('not_connected', 'Connect a payment account first (POST /v1/connect/start).');
  const now = deps.clock.now();
  const id = deps.ids.next('cs');
  const session: CheckoutSession = {
    id,
    developerId,
    productId: product.id,
    amount: product.price,
    currency: product.currency,
    email,
    // With our session's id, so the default success page can show the license key (24 h, as the status).
    successUrl: input.successUrl ?? `${deps.settings.apiBaseUrl}/checkout/success?session_id=${id}`,
    // With our session's id, so the default cancel page can end the session (the buyer lands on it as given).
    cancelUrl: input.cancelUrl ?? `${deps.settings.apiBaseUrl}/checkout/cancel?session_id=${id}`,
    processor: deps.processor.kind,
    processorSessionId: null,
    checkoutUrl: null,
    storedStatus: 'pending',
    createdAt: now,
    expiresAt: now + CHECKOUT_LIFETIME_MS,
    completedAt: null,
    licenseId: null,
    customerId: null,
    paymentId: null,
    reconciledAt: null,
  };
  // Stored first: a webhook may arrive before the processor call returns.
  await deps.checkouts.create(session);
  // The processor's page bills the trial fixed now: the days left of the buyer's own when the e-mail
  // is known, else the product's (Stripe takes no later change, so the page promises no other).
  const trial = await offeredTrial(deps, product, email, now);
  const sellerName = (await deps.developers.findById(developerId))?.name ?? '';
  const created = await deps.processor.createCheckout({
    session,
    product,
    offer: checkoutOffer({ product, sellerName, now, trial }),
    trial,
    accountId: account.accountId,
    successUrl: session.successUrl,
    cancelUrl: session.cancelUrl,
  });
  await deps.checkouts.update(session.id, { processorSessionId: created.processorSessionId, checkoutUrl: created.url });
  return { sessionId: session.id, checkoutUrl: created.url };
}
