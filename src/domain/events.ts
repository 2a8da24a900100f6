/**
 * The events a seller hears about (the outbox, delivered by webhooks): which change makes which
 * event, and each event's payload. Pure: the store writes what these return in the transaction of
 * the change, so an event exists exactly when its change does.
 */
import type { Activation } from './activation.ts';
import type { Lease } from './lease.ts';
import type { CheckoutSession } from './checkout-session.ts';
import { sameEntitlements } from './entitlements.ts';
import { licenseStatus, viewDeveloperLicense, type License, type LicenseStatus } from './license.ts';
import type { Order } from './order.ts';
import { viewSubscription, type Subscription } from './subscription.ts';
import type { WebhookEventType } from './webhook-endpoint.ts';

/** An event the store writes; every enabled endpoint of the seller that takes its type gets a delivery. */
export interface DomainEvent {
  developerId: string;
  type: WebhookEventType;
  data: unknown;
}

type LicenseLinks = { license?: { id?: string }; activation?: { licenseId?: string }; lease?: { licenseId?: string }; order?: { licenseId?: string }; subscription?: { licenseId?: string } };

/** The license an event is about (license.*, trial.ending, activation.*, order.*, subscription.*), or null: a license's events are listed by it. */
export function eventLicenseId(event: DomainEvent): string | null {
  const data = event.data as LicenseLinks | null;
  return data?.license?.id ?? data?.activation?.licenseId ?? data?.lease?.licenseId ?? data?.order?.licenseId ?? data?.subscription?.licenseId ?? null;
}

/** A license as its events carry it: with the e-mail of the customer who holds it. */
export type LicenseSubject = License & { customerEmail: string };
/** The license an activation belongs to, as the activation's events name it. */
export type ActivationOwner = Pick<License, 'developerId' | 'productId' | 'customerId'>;

/**
 * The license as its developer lists it, without the machine (an event reports the license, not its
 * bindings), so a field the view gains is in the payload too. The status is the caller's: each event
 * reports the one its change produced. The holder's e-mail comes after the customer id, where
 * payloads have always carried it (receivers may compare the bytes they logged).
 */
function licenseData(license: LicenseSubject, status: LicenseStatus) {
  const { id, productId, customerId, customerEmail, machineFingerprint: _machine, ...rest } = viewDeveloperLicense(license, status);
  return { license: { id, productId, customerId, customerEmail, ...rest } };
}

/** A new license reports the status it was stored with. */
export function licenseCreated(license: LicenseSubject): DomainEvent {
  return { developerId: license.developerId, type: 'license.created', data: licenseData(license, license.storedStatus) };
}

/**
 * What a change to a license announces, if anything: a revocation, a trial converted, a paid
 * license's term extended, or shortened (a refunded renewal taken back), or its entitlements
 * changed, in that order of precedence; at most one event per change. `now` is
 * when the change is written, for the status the payload reports.
 */
export function licenseChanged(before: License, after: LicenseSubject, now: number): DomainEvent | null {
  const type = licenseChangeType(before, after);
  return type === null ? null : { developerId: after.developerId, type, data: licenseData(after, licenseStatus(after, now)) };
}

function licenseChangeType(before: License, after: License): WebhookEventType | null {
  if (before.storedStatus === 'active' && after.storedStatus === 'revoked') return 'license.revoked';
  if (before.trial && !after.trial) return 'license.converted';
  const extended = before.expiresAt !== null && after.expiresAt !== null && after.expiresAt > before.expiresAt;
  if (!before.trial && !after.trial && extended) return 'license.renewed';
  const shortened = before.expiresAt !== after.expiresAt && after.expiresAt !== null && (before.expiresAt === null || after.expiresAt < before.expiresAt);
  if (!before.trial && !after.trial && shortened) return 'license.updated';
  // docs/entitlements.md: another set of entitlements (a spelling or an order alone is none).
  if (!sameEntitlements(before.features, after.features)) return 'license.updated';
  return null;
}

/** An active license past its expiry, announced once (the store marks it); revoked ones are not announced. */
export function licenseExpired(license: LicenseSubject): DomainEvent | null {
  if (license.storedStatus !== 'active') return null;
  return { developerId: license.developerId, type: 'license.expired', data: licenseData(license, 'expired') };
}

/** How long before a trial license's expiry its seller hears `trial.ending`. */
export const TRIAL_ENDING_NOTICE_MS = 3 * 86_400_000;

/**
 * A trial license whose end is at most TRIAL_ENDING_NOTICE_MS away, announced once (the store marks
 * it); one already over, revoked or no longer a trial is marked without an event.
 */
export function trialEnding(license: LicenseSubject, now: number): DomainEvent | null {
  const { trial, expiresAt, storedStatus } = license;
  if (!trial || storedStatus !== 'active' || expiresAt === null || expiresAt <= now || expiresAt - now > TRIAL_ENDING_NOTICE_MS) return null;
  return { developerId: license.developerId, type: 'trial.ending', data: licenseData(license, 'active') };
}

/** A subscription as its events carry it: with the e-mail of the customer who pays for it. */
export type SubscriptionSubject = Subscription & { customerEmail: string };

/** The subscription as its seller's API answers it. */
function subscriptionData(subscription: SubscriptionSubject) {
  return { subscription: viewSubscription(subscription) };
}

export function subscriptionCreated(subscription: SubscriptionSubject): DomainEvent {
  return { developerId: subscription.developerId, type: 'subscription.created', data: subscriptionData(subscription) };
}

/**
 * What a change to a subscription announces, oldest rule first. `canceled` is final and says it
 * alone. Otherwise: `past_due` when it falls behind; `renewed` when a period was paid (its end moved
 * later while active, or a past-due one is active again); `resumed` when a cancellation at period end
 * was taken back. A change can be both a renewal and a resumption; a change that repeats what is
 * held (a processor event delivered twice) announces nothing.
 */
export function subscriptionChanged(before: Subscription, after: SubscriptionSubject): DomainEvent[] {
  const types = subscriptionChangeTypes(before, after);
  return types.map((type) => ({ developerId: after.developerId, type, data: subscriptionData(after) }));
}

function subscriptionChangeTypes(before: Subscription, after: Subscription): WebhookEventType[] {
  if (after.status === 'canceled') return before.status === 'canceled' ? [] : ['subscription.canceled'];
  const types: WebhookEventType[] = [];
  if (after.status === 'past_due' && before.status !== 'past_due') types.push('subscription.past_due');
  const paid = after.currentPeriodEnd > before.currentPeriodEnd || before.status === 'past_due';
  if (after.status === 'active' && paid) types.push('subscription.renewed');
  if (before.cancelAtPeriodEnd && !after.cancelAtPeriodEnd) types.push('subscription.resumed');
  return types;
}

/** A paid invoice of the subscription whose amount or currency is not its price: what was paid and what was expected. */
export interface PaymentMismatch {
  invoiceId: string;
  amount: number;
  currency: string;
  expectedAmount: number;
  expectedCurrency: string;
}

/** An invoice that extends nothing because it did not pay the subscription's price: its seller hears of it. */
export function subscriptionPaymentMismatch(subscription: SubscriptionSubject, mismatch: PaymentMismatch): DomainEvent {
  return { developerId: subscription.developerId, type: 'subscription.payment_mismatch', data: { ...subscriptionData(subscription), invoice: mismatch } };
}

function activationData(activation: Activation, owner: ActivationOwner) {
  const { id, licenseId, machineFingerprint, name, createdAt } = activation;
  return { activation: { id, licenseId, productId: owner.productId, customerId: owner.customerId, machineFingerprint, name, createdAt } };
}

export function activationCreated(activation: Activation, owner: ActivationOwner): DomainEvent {
  return { developerId: owner.developerId, type: 'activation.created', data: activationData(activation, owner) };
}

export function activationDeleted(activation: Activation, owner: ActivationOwner): DomainEvent {
  return { developerId: owner.developerId, type: 'activation.deleted', data: activationData(activation, owner) };
}

/** An order as its events carry it: with the e-mail of the customer who paid. */
export type OrderSubject = Order & { customerEmail: string };

/** The fields order.* events carry, in the order they are sent. */
const ORDER_EVENT_FIELDS = [
  'id', 'productId', 'customerId', 'customerEmail', 'licenseId', 'source', 'amount', 'currency', 'processor', 'paymentId',
  'processorReference', 'status', 'createdAt', 'amountRefunded', 'refundedAt', 'periodStart', 'periodEnd',
] as const satisfies readonly (keyof OrderSubject)[];

/** What order.* events leave out: the seller (the endpoint's owner), the record it came from, the receipt's address. */
type OrderEventLeavesOut = 'developerId' | 'sourceId' | 'receiptUrl';

/**
 * Every field of an order is carried or left out by name: a field added to `Order` fails the type
 * check here (naming it) until its events' shape is decided.
 */
type Decided<Undecided extends never> = Undecided;
export type OrderEventFieldsDecided = Decided<Exclude<keyof OrderSubject, (typeof ORDER_EVENT_FIELDS)[number] | OrderEventLeavesOut>>;

function orderData(order: OrderSubject) {
  return { order: Object.fromEntries(ORDER_EVENT_FIELDS.map((field) => [field, order[field]])) as Pick<OrderSubject, (typeof ORDER_EVENT_FIELDS)[number]> };
}

export function orderCompleted(order: OrderSubject): DomainEvent {
  return { developerId: order.developerId, type: 'order.completed', data: orderData(order) };
}

/**
 * Money went back on an order (a refund, partial or full, or a lost dispute): its `status` says
 * whether all of it did. Any other change announces nothing.
 */
export function orderChanged(before: Pick<Order, 'amountRefunded'>, after: OrderSubject): DomainEvent | null {
  if (after.amountRefunded <= before.amountRefunded) return null;
  return { developerId: after.developerId, type: 'order.refunded', data: orderData(after) };
}

/**
 * Whether writing `patch` to a checkout can announce anything: only an expiry can. A store reads
 * the session before a change (in the change's transaction) only then; any other write is one
 * statement.
 */
export function checkoutPatchAnnounces(patch: Partial<Pick<CheckoutSession, 'storedStatus'>>): boolean {
  return patch.storedStatus === 'expired';
}

/** A pending checkout moved to expired; any other change announces nothing. */
export function checkoutChanged(before: Pick<CheckoutSession, 'storedStatus'>, after: CheckoutSession): DomainEvent | null {
  if (before.storedStatus !== 'pending' || !checkoutPatchAnnounces(after)) return null;
  const { id, productId, email, amount, currency, createdAt, expiresAt } = after;
  return { developerId: after.developerId, type: 'checkout.expired', data: { checkout: { id, productId, email, amount, currency, createdAt, expiresAt } } };
}

/** A lease as its events carry it (docs/leases.md). */
function leaseData(lease: Lease, owner: ActivationOwner) {
  const { id, licenseId, machineFingerprint, createdAt, expiresAt } = lease;
  return { lease: { id, licenseId, productId: owner.productId, customerId: owner.customerId, machineFingerprint, createdAt, expiresAt } };
}

export type LeaseEventType = 'lease.created' | 'lease.released' | 'lease.expired';

export function leaseEvent(type: LeaseEventType, lease: Lease, owner: ActivationOwner): DomainEvent {
  return { developerId: owner.developerId, type, data: leaseData(lease, owner) };
}

/** The checkout that takes a license's last free seat announces it, once per filling (refusals write nothing). */
export function leaseLimitReached(lease: Lease, owner: ActivationOwner, live: number, maxLeases: number): DomainEvent | null {
  if (live < maxLeases) return null;
  return { developerId: owner.developerId, type: 'lease.limit_reached', data: { ...leaseData(lease, owner), maxLeases, live } };
}
