import { CHECKOUT_LIFETIME_MS, isRedirectUrl, type CheckoutSession } from '../../domain/checkout-session.ts';
import { normalizeEmail } from '../../domain/developer.ts';
import { DomainError, InvalidRequestError, NotFoundError } from '../../domain/errors.ts';
import type { Deps } from '../../ports/deps.ts';

export interface StartCheckoutInput {
  productId: string;
  email?: string;
  successUrl?: string;
  cancelUrl?: string;
}

/** A hosted checkout on the seller's connected processor account, open for 30 minutes. */
export async function startCheckout(
  deps: Pick<Deps, 'clock' | 'ids' | 'products' | 'connections' | 'checkouts' | 'processor' | 'apiBaseUrl'>,
  developerId: string,
  input: StartCheckoutInput,
): Promise<{ sessionId: string; checkoutUrl: string }> {
  for (const field of ['successUrl', 'cancelUrl'] as const) {
    const url = input[field];
    if (url !== undefined && !isRedirectUrl(url)) throw new InvalidRequestError(`${field} must be an absolute http(s) URL.`, field);
  }
  const email = input.email === undefined ? null : normalizeEmail(input.email);
  if (input.email !== undefined && !email) throw new InvalidRequestError('email is not a valid e-mail address.', 'email');
  const product = await deps.products.get(developerId, input.productId);
  if (!product || !product.active) throw new NotFoundError('product');
  const account = await deps.connections.accountOf(developerId);
  if (!account) throw new DomainError('not_connected', 'Connect a payment account first (POST /v1/connect/start).');
  const now = deps.clock.now();
  const session: CheckoutSession = {
    id: deps.ids.next('cs'),
    developerId,
    productId: product.id,
    amount: product.price,
    currency: product.currency,
    email,
    successUrl: input.successUrl ?? `${deps.apiBaseUrl}/checkout/success`,
    cancelUrl: input.cancelUrl ?? `${deps.apiBaseUrl}/checkout/cancel`,
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
  const created = await deps.processor.createCheckout({
    session,
    product,
    accountId: account.accountId,
    successUrl: session.successUrl,
    cancelUrl: session.cancelUrl,
  });
  await deps.checkouts.setProcessorSession(session.id, created.processorSessionId, created.url);
  return { sessionId: session.id, checkoutUrl: created.url };
}
