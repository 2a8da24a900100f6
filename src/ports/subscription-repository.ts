import type { PaymentMismatch } from '../domain/events.ts';
import type { Subscription, SubscriptionChange, SubscriptionStatus } from '../domain/subscription.ts';
import type { NewestFirstQuery, Page } from './page.ts';

/** A subscription as its seller lists it: with the e-mail of the customer who pays for it. */
export type DeveloperSubscription = Subscription & { customerEmail: string };

export type SubscriptionListQuery = NewestFirstQuery<SubscriptionStatus>;

export type SubscriptionPage = Page<DeveloperSubscription>;

export interface SubscriptionRepository {
  /**
   * Records a subscription once per processor subscription id (store-enforced): a second record of
   * the same one writes nothing and returns the one stored first.
   */
  create(subscription: Subscription): Promise<Subscription>;
  findByProcessorId(processorSubscriptionId: string): Promise<Subscription | null>;
  findByLicense(licenseId: string): Promise<Subscription | null>;
  /** Another developer's subscription is null, as an unknown one. */
  findById(developerId: string, id: string): Promise<Subscription | null>;
  /** Applies the change in one conditional update (see applySubscriptionChange); null when unknown. */
  update(processorSubscriptionId: string, change: SubscriptionChange): Promise<Subscription | null>;
  /** Writes subscription.payment_mismatch: a paid invoice that was not the subscription's price, which extends nothing. */
  reportPaymentMismatch(subscription: Subscription, mismatch: PaymentMismatch): Promise<void>;
  /**
   * The seller asked to end it at its period end: cancelAtPeriodEnd is set in one conditional update
   * whatever time the row holds (the seller's request is the newest news there is), and updatedAt
   * becomes max(updatedAt, at), so processor news from before the request cannot undo it. A canceled
   * subscription is returned as it is. Null when it is not this developer's.
   */
  markCancelAtPeriodEnd(developerId: string, id: string, at: number): Promise<Subscription | null>;
  /** The customer's own subscription; another customer's is null, as an unknown one. */
  findForCustomer(customerId: string, id: string): Promise<Subscription | null>;
  /** One customer's subscriptions across sellers, newest first, at most `limit`. */
  listByCustomer(customerId: string, limit: number): Promise<Subscription[]>;
  /**
   * The buyer's cancel (true) or resume (false), step 1: claims the subscription for that change in
   * one conditional update, only while it is not canceled, its cancelAtPeriodEnd is the opposite
   * and no other buyer change is in flight (a claim older than `staleBefore` counts as none). The
   * claimed subscription, or null: of concurrent calls one wins, and only the winner tells the processor.
   */
  claimBuyerChange(customerId: string, id: string, cancelAtPeriodEnd: boolean, at: number, staleBefore: number): Promise<Subscription | null>;
  /** Step 2, once the processor agreed: records the change and ends the claim made at `claimedAt`; null when that claim is no longer held. */
  finishBuyerChange(id: string, cancelAtPeriodEnd: boolean, claimedAt: number, at: number): Promise<Subscription | null>;
  /** The processor refused: the claim made at `claimedAt` ends, nothing else changes. */
  releaseBuyerChange(id: string, claimedAt: number): Promise<void>;
  /** One developer's subscriptions, newest first (createdAt, then id, descending), each with its customer's e-mail. */
  listByDeveloper(developerId: string, query: SubscriptionListQuery): Promise<SubscriptionPage>;
  /**
   * The sandbox's subscriptions of one developer whose period ended at or before `at` and that are
   * not canceled: the ones its clock bills. Oldest period end first.
   */
  listDueSandbox(developerId: string, at: number, limit: number): Promise<Subscription[]>;
}
