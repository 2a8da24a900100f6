import { ConflictError, DomainError, NotFoundError } from '../../domain/errors.ts';
import type { Subscription } from '../../domain/subscription.ts';
import type { Deps } from '../../ports/deps.ts';
import { nameLookup } from '../customers/names.ts';
import { CARD_LINK_LIFETIME_MS, sandboxCardUrl } from '../customers/sandbox-card.ts';
import { hitOrRefuse } from '../limits/address-limits.ts';
import { processorAccountOf } from './cancel-subscription.ts';

/** A buyer lists at most this many of their subscriptions (newest first): a customer holds a handful. */
export const CUSTOMER_SUBSCRIPTION_LIMIT = 100;
/** A buyer's change whose processor call never came back (a crashed instance) stops blocking the next after this long. */
export const CHANGE_CLAIM_STALE_MS = 60_000;
/** Cancels and resumes that reach the processor, per subscription per hour: a toggling script costs the seller's processor account at most this. */
export const BUYER_CHANGES_PER_HOUR = 10;
/** Card-change pages (a processor session each) per subscription per hour. */
export const CARD_PAGES_PER_HOUR = 10;
const HOUR_MS = 3_600_000;

type ListDeps = Pick<Deps, 'clock' | 'subscriptions' | 'products' | 'developers' | 'orders'>;
export type ChangeDeps = ListDeps & Pick<Deps, 'processor' | 'connections' | 'rateLimiter'>;

/** A subscription as its buyer sees it (docs/customers.md): what it is, from whom, and when and how much it charges next. */
export interface CustomerSubscriptionView {
  id: string;
  sellerName: string;
  productId: string;
  productName: string;
  licenseId: string;
  processor: Subscription['processor'];
  status: Subscription['status'];
  interval: Subscription['interval'];
  currentPeriodEnd: number;
  /** Its free trial's end while it runs (no charge before it); null otherwise. */
  trialEnd: number | null;
  cancelAtPeriodEnd: boolean;
  /** When it charges next: the trial's end during a trial, else the period's end; null when it will not (canceled, or set to end). */
  nextChargeAt: number | null;
  /** What it charges, in the currency's minor unit: its last payment's amount, or the product's price before any. */
  amount: number;
  currency: string;
  createdAt: number;
  canceledAt: number | null;
}

/** The next charge: none once canceled or set to end; during a trial its end, else the period's end. */
export function nextChargeAt(subscription: Subscription, now: number): number | null {
  if (subscription.status === 'canceled' || subscription.cancelAtPeriodEnd) return null;
  const { trialEnd } = subscription;
  return trialEnd !== null && trialEnd > now ? trialEnd : subscription.currentPeriodEnd;
}

async function describe(deps: ListDeps, names: ReturnType<typeof nameLookup>, subscription: Subscription): Promise<CustomerSubscriptionView> {
  const now = deps.clock.now();
  const [product, sellerName, orders] = await Promise.all([
    names.product(subscription.productId),
    names.sellerName(subscription.developerId),
    deps.orders.findByLicense(subscription.licenseId),
  ]);
  const paid = orders.at(-1);
  const { trialEnd } = subscription;
  return {
    id: subscription.id,
    sellerName,
    productId: subscription.productId,
    productName: product?.name ?? '',
    licenseId: subscription.licenseId,
    processor: subscription.processor,
    status: subscription.status,
    interval: subscription.interval,
    currentPeriodEnd: subscription.currentPeriodEnd,
    trialEnd: trialEnd !== null && trialEnd > now ? trialEnd : null,
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    nextChargeAt: nextChargeAt(subscription, now),
    amount: paid?.amount ?? product?.price ?? 0,
    currency: paid?.currency ?? product?.currency ?? '',
    createdAt: subscription.createdAt,
    canceledAt: subscription.canceledAt,
  };
}

/** The signed-in customer's subscriptions across sellers, newest first. */
export async function listCustomerSubscriptions(deps: ListDeps, customerId: string): Promise<CustomerSubscriptionView[]> {
  const names = nameLookup(deps);
  const subscriptions = await deps.subscriptions.listByCustomer(customerId, CUSTOMER_SUBSCRIPTION_LIMIT);
  return Promise.all(subscriptions.map((s) => describe(deps, names, s)));
}

/** One of the customer's own subscriptions; another customer's is 404 like an unknown id. */
export async function customerSubscription(deps: Pick<Deps, 'subscriptions'>, customerId: string, id: string): Promise<Subscription> {
  const subscription = await deps.subscriptions.findForCustomer(customerId, id);
  if (!subscription) throw new NotFoundError('subscription');
  return subscription;
}

const inProgress = () => new ConflictError('conflict', 'Another change of this subscription is in progress: try again in a moment.');

/**
 * The buyer cancels (`cancel` true: it runs to its period's end, then ends; during a trial nothing
 * is charged) or resumes (false: it renews again, before its period ends). The store claims the
 * subscription for the change first, in one conditional update, so of any number of concurrent
 * requests one makes each change and only it calls the processor; the change is recorded once the
 * processor agreed (a refusal releases the claim and records nothing). A subscription already in
 * the wanted state is answered as it stands, without calling the processor; a request meeting
 * another change in flight is 409 conflict.
 */
export async function changeRenewal(deps: ChangeDeps, customerId: string, id: string, cancel: boolean): Promise<CustomerSubscriptionView> {
  const current = await customerSubscription(deps, customerId, id);
  const now = deps.clock.now();
  if (!cancel) resumable(current, now);
  if (current.status === 'canceled' || current.cancelAtPeriodEnd === cancel) return describe(deps, nameLookup(deps), current);
  const claimed = await deps.subscriptions.claimBuyerChange(customerId, id, cancel, now, now - CHANGE_CLAIM_STALE_MS);
  if (!claimed) {
    const latest = await customerSubscription(deps, customerId, id);
    if (latest.cancelAtPeriodEnd === cancel || (cancel && latest.status === 'canceled')) return describe(deps, nameLookup(deps), latest);
    if (!cancel) resumable(latest, now);
    throw inProgress();
  }
  try {
    // Counted only for the claim's holder: the one request that would reach the processor.
    await hitOrRefuse(deps, `renewal:subscription:${id}`, BUYER_CHANGES_PER_HOUR, HOUR_MS, (limit, seconds) =>
      `This subscription was cancelled or resumed ${limit} times in the last hour. Try again in ${seconds} seconds.`,
    );
    await tellProcessor(deps, claimed, cancel);
  } catch (error) {
    await deps.subscriptions.releaseBuyerChange(id, now);
    throw error;
  }
  const changed = await deps.subscriptions.finishBuyerChange(id, cancel, now, deps.clock.now());
  if (!changed) throw inProgress();
  return describe(deps, nameLookup(deps), changed);
}

/** Only a live subscription resumes, and only before its period ends (after it, it has ended). */
function resumable(subscription: Subscription, now: number): void {
  if (subscription.status === 'canceled') throw new ConflictError('conflict', 'This subscription has ended: buy the product again to subscribe anew.');
  if (subscription.cancelAtPeriodEnd && now >= subscription.currentPeriodEnd) {
    throw new ConflictError('conflict', 'This subscription’s period has ended: buy the product again to subscribe anew.');
  }
}

const NOT_CONNECTED = 'The seller’s payment account is not connected to this service any more: ask the seller to change it.';

async function tellProcessor(deps: ChangeDeps, subscription: Subscription, cancel: boolean): Promise<void> {
  const account = await processorAccountOf(deps, subscription, NOT_CONNECTED);
  if (!account) return;
  if (cancel) await deps.processor.cancelSubscriptionAtPeriodEnd(subscription.processorSubscriptionId, account);
  else await deps.processor.resumeSubscription(subscription.processorSubscriptionId, account);
}

/**
 * Where the buyer changes the card a subscription renews with: Stripe's billing portal for the
 * subscription's customer on the seller's account (back to `returnUrl`), or the sandbox's own card
 * form, through a link that only this subscription's buyer is given (a MAC over the subscription
 * and the link's end), working 30 minutes.
 */
export async function cardChangeUrl(deps: ChangeDeps & Pick<Deps, 'derivedSecrets' | 'settings'>, customerId: string, id: string, returnUrl: string): Promise<{ url: string; processor: Subscription['processor'] }> {
  const subscription = await customerSubscription(deps, customerId, id);
  if (subscription.status === 'canceled') throw new ConflictError('conflict', 'This subscription has ended: it renews with no card.');
  await hitOrRefuse(deps, `card-page:subscription:${id}`, CARD_PAGES_PER_HOUR, HOUR_MS, (limit, seconds) =>
    `A card change was asked for ${limit} times in the last hour for this subscription. Try again in ${seconds} seconds.`,
  );
  const account = await processorAccountOf(deps, subscription, NOT_CONNECTED);
  if (!account) return { url: sandboxCardUrl(deps, customerId, subscription.id, deps.clock.now() + CARD_LINK_LIFETIME_MS), processor: 'sandbox' };
  const url = await deps.processor.cardUpdateUrl(subscription.processorSubscriptionId, account, returnUrl);
  if (!url) throw new DomainError('processor_error', 'The processor offered no page to change the card; try again later.');
  return { url, processor: subscription.processor };
}
