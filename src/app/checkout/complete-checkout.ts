import type { Completion } from '../../domain/checkout-session.ts';
import { normalizeEmail } from '../../domain/developer.ts';
import { DomainError, InvalidRequestError, NotFoundError } from '../../domain/errors.ts';
import { expiryFor, type License } from '../../domain/license.ts';
import type { Deps } from '../../ports/deps.ts';
import { issueLicense } from '../licenses/issue-license.ts';

export type CompleteDeps = Pick<
  Deps,
  'clock' | 'ids' | 'hashing' | 'signer' | 'signingKeys' | 'licenses' | 'products' | 'customers' | 'cards' | 'checkouts' | 'issuer'
>;

/**
 * A paid checkout becomes a customer, a saved card and exactly one license, however many of the
 * webhook, a status poll and the sandbox's Pay deliver the same completion at once: the store
 * accepts one license per session and every path returns that one.
 */
export async function completeCheckout(deps: CompleteDeps, sessionId: string, completion: Completion): Promise<License> {
  const session = await deps.checkouts.findById(sessionId);
  if (!session) throw new NotFoundError('checkout session');
  if (session.licenseId) return existingLicense(deps, session.licenseId);
  const email = normalizeEmail(completion.email) ?? session.email;
  if (!email) throw new InvalidRequestError('The payment has no usable e-mail address.', 'email');
  const now = deps.clock.now();
  const customer = await deps.customers.findOrCreate({ id: deps.ids.next('cus'), email, phone: completion.phone, createdAt: now });
  // A checkout proves a card, not who owns the e-mail: it may give a customer a first phone, never
  // replace one (docs/customers.md). The card remembers the checkout's phone and is offered only
  // to a sign-in through that phone.
  if (completion.phone && customer.phone === null) await deps.customers.setPhoneIfNone(customer.id, completion.phone);
  if (completion.card) {
    await deps.cards.save({
      ...completion.card,
      id: deps.ids.next('card'),
      customerId: customer.id,
      developerId: session.developerId,
      processorCustomerId: completion.processorCustomerId,
      phone: completion.phone ?? null,
      createdAt: now,
    });
  }
  const license = await issueOnce(deps, session.id, {
    developerId: session.developerId,
    productId: session.productId,
    customerId: customer.id,
    ...(await termsOf(deps, session.developerId, session.productId, now)),
  });
  await deps.checkouts.markComplete(session.id, { licenseId: license.id, customerId: license.customerId, paymentId: completion.paymentId, completedAt: now });
  return license;
}

async function issueOnce(deps: CompleteDeps, sessionId: string, terms: Parameters<typeof issueLicense>[1]): Promise<License> {
  try {
    return await issueLicense(deps, terms, { checkoutSessionId: sessionId });
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'conflict') throw error;
    const winner = await deps.licenses.findByCheckoutSession(sessionId);
    if (!winner) throw error;
    return winner;
  }
}

/** The product's terms as they are when it is paid for. */
async function termsOf(deps: CompleteDeps, developerId: string, productId: string, now: number) {
  const product = await deps.products.get(developerId, productId);
  if (!product) throw new NotFoundError('product');
  return { features: product.features, issuedAt: now, expiresAt: expiryFor(product.licenseDays, now), maxMachines: product.maxMachines };
}

async function existingLicense(deps: CompleteDeps, licenseId: string): Promise<License> {
  const license = await deps.licenses.findById(licenseId);
  if (!license) throw new NotFoundError('license');
  return license;
}
