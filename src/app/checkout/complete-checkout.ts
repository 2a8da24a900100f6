import type { SavedCard } from '../../domain/card.ts';
import { newCustomer, signInPhone } from '../../domain/customer.ts';
import { NEW_ORDER } from '../../domain/order.ts';
import { maskPhone } from '../../domain/phone.ts';
import { phoneLinkUrl } from '../customers/phone-link.ts';
import type { CheckoutSession, Completion } from '../../domain/checkout-session.ts';
import { normalizeEmail } from '../../domain/developer.ts';
import { DomainError, InvalidRequestError, NotFoundError } from '../../domain/errors.ts';
import { expiryFor, type License } from '../../domain/license.ts';
import { paidThrough } from '../../domain/subscription.ts';
import type { Deps } from '../../ports/deps.ts';
import type { LicenseTerms } from '../licenses/issue-license.ts';
import { receiptContext, receiptFor, type ReceiptFor } from '../mail/receipt.ts';
import { applyReversals } from '../orders/settle-refund.ts';
import { issueOrConvert } from '../trials/convert-trial.ts';

export type CompleteDeps = Pick<
  Deps,
  'clock' | 'ids' | 'hashing' | 'sms' | 'signer' | 'signingKeys' | 'licenses' | 'products' | 'customers' | 'cards' | 'checkouts' | 'settings' | 'orders' | 'subscriptions' | 'developers' | 'derivedSecrets' | 'connections'
>;

/**
 * A paid checkout becomes a customer, a saved card, exactly one license (a trial of the product
 * converted, or a new one), its subscription when the product is recurring, and its order, however
 * many of the webhook, a status poll and the sandbox's Pay deliver the same completion at once: the
 * store accepts one license per session and every path returns that one (only its write queues the
 * receipt to the customer). Everything is written before the session is marked complete, so a crash
 * in between is repaired by the next path.
 */
export async function completeCheckout(deps: CompleteDeps, sessionId: string, completion: Completion): Promise<License> {
  const session = await deps.checkouts.findById(sessionId);
  if (!session) throw new NotFoundError('checkout session');
  if (session.licenseId) return existingLicense(deps, session.licenseId);
  const email = normalizeEmail(completion.email) ?? session.email;
  if (!email) throw new InvalidRequestError('The payment has no usable e-mail address.', 'email');
  const now = deps.clock.now();
  // A checkout proves a card, not who owns the e-mail: its phone never becomes the customer's
  // (docs/customers.md). It stays with the saved card, offered only to a sign-in through that phone.
  const customer = await deps.customers.findOrCreate(newCustomer(deps.ids.next('cus'), email, now));
  let card: SavedCard | null = null;
  if (completion.card) {
    card = await deps.cards.save({
      ...completion.card,
      id: deps.ids.next('card'),
      customerId: customer.id,
      developerId: session.developerId,
      processorCustomerId: completion.processorCustomerId,
      phone: completion.phone ?? null,
      createdAt: now,
    });
  }
  const newSubscriptionId = completion.subscription ? deps.ids.next('sub') : null;
  const context = await receiptContext(deps, session.developerId, session.productId, customer.email);
  // The receipt reaches the e-mail's owner: it may confirm the checkout's phone as their sign-in phone.
  if (card?.phone && deps.sms && signInPhone(customer) === null) {
    context.phoneLink = { url: phoneLinkUrl(deps, context.accountUrl, customer.id, card.id), phoneMasked: maskPhone(card.phone) };
  }
  const started = completion.subscription;
  const trialEnd = started?.trialEnd ?? null;
  const paid = { amount: session.amount, currency: session.currency };
  // A subscription bought with a trial charged nothing yet: its mail says so, and what comes after.
  const receipt = receiptFor(deps, context, started && trialEnd !== null ? { kind: 'subscription_trial', ...paid, interval: started.interval } : { kind: 'paid', ...paid });
  const license = await issueOnce(deps, session.id, receipt, {
    developerId: session.developerId,
    productId: session.productId,
    customerId: customer.id,
    ...(await termsOf(deps, session, completion, now)),
    subscriptionId: newSubscriptionId,
  });
  await recordSubscription(deps, session, license, completion, newSubscriptionId, now);
  // Nothing was paid for a trial: its first charge, at the trial's end, is the subscription's first order.
  if (trialEnd === null) await recordOrder(deps, session, license, completion, now);
  await deps.checkouts.markComplete(session.id, { licenseId: license.id, customerId: license.customerId, paymentId: completion.paymentId, completedAt: now });
  return license;
}

async function issueOnce(deps: CompleteDeps, sessionId: string, receipt: ReceiptFor, terms: LicenseTerms): Promise<License> {
  try {
    return await issueOrConvert(deps, terms, { checkoutSessionId: sessionId }, receipt);
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'conflict') throw error;
    const winner = await deps.licenses.findByCheckoutSession(sessionId);
    if (!winner) throw error;
    return winner;
  }
}

/**
 * The product's terms as they are when it is paid for. A subscription's license lasts its paid
 * period plus the product's grace days; each paid renewal extends it. In a subscription's trial it
 * is a trial license that ends with the trial (no grace: nothing was paid), converted by the first charge.
 */
async function termsOf(deps: CompleteDeps, session: CheckoutSession, completion: Completion, now: number) {
  const product = await deps.products.get(session.developerId, session.productId);
  if (!product) throw new NotFoundError('product');
  const started = completion.subscription;
  const base = { features: product.features, issuedAt: now, maxMachines: product.maxMachines };
  if (started?.trialEnd != null) return { ...base, expiresAt: started.trialEnd, trial: true, proven: true };
  const expiresAt = started ? paidThrough(started.currentPeriodEnd, product.graceDays) : expiryFor(product.licenseDays, now);
  return { ...base, expiresAt };
}

/**
 * Keyed by the processor's subscription id, so concurrent completions record one; its id is the
 * one the winning license carries (every loser generated another, unused).
 */
async function recordSubscription(deps: CompleteDeps, session: CheckoutSession, license: License, completion: Completion, newId: string | null, now: number) {
  const started = completion.subscription;
  if (!started || !newId) return;
  await deps.subscriptions.create({
    id: license.subscriptionId ?? newId,
    developerId: session.developerId,
    customerId: license.customerId,
    productId: session.productId,
    licenseId: license.id,
    processor: session.processor,
    processorSubscriptionId: started.processorSubscriptionId,
    status: 'active',
    interval: started.interval,
    currentPeriodEnd: started.currentPeriodEnd,
    cancelAtPeriodEnd: false,
    trialEnd: started.trialEnd ?? null,
    createdAt: now,
    updatedAt: now,
    canceledAt: null,
  });
}

/**
 * One order per checkout session (the store keys it by our session id), recurring or not. Its
 * payment refunded or lost in a dispute before this completion (the processor's event came first):
 * the order records it and the license it paid for is revoked, whatever order the events came in.
 */
async function recordOrder(deps: CompleteDeps, session: CheckoutSession, license: License, completion: Completion, now: number) {
  const order = await deps.orders.record({
    id: deps.ids.next('ord'),
    developerId: session.developerId,
    customerId: license.customerId,
    productId: session.productId,
    licenseId: license.id,
    source: 'checkout',
    sourceId: session.id,
    amount: session.amount,
    currency: session.currency,
    processor: session.processor,
    paymentId: completion.paymentId,
    processorReference: session.processorSessionId,
    ...NEW_ORDER,
    receiptUrl: completion.receiptUrl ?? null,
    createdAt: now,
  });
  await applyReversals(deps, order);
}

async function existingLicense(deps: CompleteDeps, licenseId: string): Promise<License> {
  const license = await deps.licenses.findById(licenseId);
  if (!license) throw new NotFoundError('license');
  return license;
}
