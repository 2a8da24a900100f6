import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { byteOrder, ID, millis, insertionOrder, postgresOnly, serialId } from './schema-kit.ts';
import { CHECKOUT_STATUSES, PROCESSOR_KINDS } from '../../domain/checkout-session.ts';
import { API_KEY_SCOPES } from '../../domain/developer.ts';
import { CHALLENGE_PURPOSES, SIGN_IN_METHODS } from '../../domain/console-session.ts';
import { LICENSE_STORED_STATUSES } from '../../domain/license.ts';
import { ORDER_SOURCES, ORDER_STATUSES } from '../../domain/order.ts';
import { OTP_SCOPES } from '../../domain/otp-challenge.ts';
import { BILLING_INTERVALS } from '../../domain/product.ts';
import { PURCHASE_STATUSES } from '../../domain/purchase.ts';
import { SUBSCRIPTION_STATUSES } from '../../domain/subscription.ts';
import { TRIAL_CLAIM_KINDS } from '../../domain/trial.ts';
import { WEBHOOK_DELIVERY_STATUSES } from '../../domain/webhook-endpoint.ts';
import { IDEMPOTENCY_STATUSES } from '../../domain/idempotency.ts';

// The one declaration of every table, for both stores: SQLite's are derived from these
// (src/adapters/store/schema-kit.ts says how; src/adapters/sqlite/schema.ts exports them). Times are Unix
// milliseconds (`millis`); `seq` columns stand in for SQLite's rowid where a list breaks ties by
// insertion order. Ids are compared and ordered bytewise (`byteOrder`, COLLATE "C" on PostgreSQL)
// wherever order matters, so every store sorts them alike, whatever the database default.

// The columns many tables share, each declared here once.
const id = () => text('id').primaryKey();
const createdAt = () => millis('created_at').notNull();
const expiresAt = () => millis('expires_at').notNull();
const developerId = () => text('developer_id').notNull().references(() => developers.id);
const customerId = () => text('customer_id').notNull().references(() => customers.id);
const productId = () => text('product_id').notNull().references(() => products.id);
const licenseId = () => text('license_id').notNull().references(() => licenses.id);

export const developers = pgTable('developers', {
  id: id(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    developerId: developerId(),
    scope: text('scope', { enum: API_KEY_SCOPES }).notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: createdAt(),
    revokedAt: millis('revoked_at'),
    /** When a request last authenticated with it, written at most once a minute per key (null = never). */
    lastUsedAt: millis('last_used_at'),
  },
  (t) => [index('api_keys_developer').on(t.developerId)],
);

export const signingKeys = pgTable(
  'signing_keys',
  {
    kid: text('kid').primaryKey(),
    developerId: developerId(),
    publicKey: text('public_key').notNull(),
    sealedPrivateKey: text('sealed_private_key').notNull(),
    createdAt: createdAt(),
    active: boolean('active').notNull(),
    notBefore: millis('not_before').notNull().default(0),
    endorsement: text('endorsement'),
    compromisedAt: millis('compromised_at'),
    retirement: text('retirement'),
    seq: insertionOrder(),
  },
  (t) => [
    index('signing_keys_developer').on(t.developerId, t.createdAt),
    // At most one active key per developer, whoever writes: what SQLite's single writer gives for free.
    postgresOnly(uniqueIndex('signing_keys_one_active').on(t.developerId).where(sql`${t.active}`)),
  ],
);

export const products = pgTable(
  'products',
  {
    id: id(),
    developerId: developerId(),
    name: text('name').notNull(),
    price: integer('price').notNull(),
    currency: text('currency').notNull(),
    features: jsonb('features').$type<string[]>().notNull(),
    licenseDays: integer('license_days'),
    /** Machines per license issued from now on; null = unlimited. */
    maxMachines: integer('max_machines').default(1),
    /** Holder-initiated deactivations allowed per license per rolling 30 days. */
    deactivationsPer30Days: integer('deactivations_per_30_days').notNull().default(3),
    /** Recurring products bill every `interval`; null = one-off. */
    interval: text('interval', { enum: BILLING_INTERVALS }),
    /** Days a subscription's license outlives a period it has not been paid for yet. */
    graceDays: integer('grace_days').notNull().default(3),
    /** Days of a free trial (one per customer e-mail and per machine); null = no trial. */
    trialDays: integer('trial_days'),
    /** Floating leases (docs/leases.md): seats per license; null = leases off. */
    maxLeases: integer('max_leases'),
    leaseSeconds: integer('lease_seconds').notNull().default(600),
    /** Hours a lease may be borrowed for offline use; 0 = none. */
    maxBorrowHours: integer('max_borrow_hours').notNull().default(0),
    active: boolean('active').notNull(),
    createdAt: createdAt(),
    updatedAt: millis('updated_at').notNull(),
  },
  (t) => [index('products_developer_order').on(t.developerId, t.createdAt, byteOrder(t.id))],
);

export const customers = pgTable('customers', {
  id: id(),
  email: text('email').notNull().unique(),
  /** The sign-in phone: a second factor only once confirmed by an SMS code in a session that proved the e-mail (docs/customers.md). */
  phone: text('phone'),
  /** When the phone was confirmed; null: the phone is not a sign-in factor (every phone from before e-mail sign-in). */
  phoneVerifiedAt: millis('phone_verified_at'),
  createdAt: createdAt(),
});

export const licenses = pgTable(
  'licenses',
  {
    id: id(),
    developerId: developerId(),
    productId: productId(),
    customerId: customerId(),
    status: text('status', { enum: LICENSE_STORED_STATUSES }).notNull(),
    features: jsonb('features').$type<string[]>().notNull(),
    issuedAt: millis('issued_at').notNull(),
    expiresAt: millis('expires_at'),
    /** Before activations (SQLite's migration 0004, PostgreSQL's 0002): the one bound machine. Copied into `activations`; neither read nor written since. */
    machineFingerprint: text('machine_fingerprint'),
    boundAt: millis('bound_at'),
    /** Copied from the product at issue; the seller may change it per license. null = unlimited. */
    maxMachines: integer('max_machines').default(1),
    licenseKey: text('license_key').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    /** What paid for it: one license per checkout session (NULLs are distinct, so granted licenses have none). */
    checkoutSessionId: text('checkout_session_id'),
    /** Or one license per terminal purchase. */
    purchaseId: text('purchase_id').references((): AnyPgColumn => purchases.id),
    /** A free trial: no payment yet; converted in place (same id, same activations) when bought. */
    trial: boolean('trial').notNull().default(false),
    /** The subscription that renews it (null = one-off or granted). */
    subscriptionId: text('subscription_id'),
    /** When `license.expired` was written for the current expiresAt (a renewal clears it). */
    expiryAnnouncedAt: millis('expiry_announced_at'),
    /** When `trial.ending` was written for the current expiresAt of a trial (a new expiry clears it). */
    trialEndingAnnouncedAt: millis('trial_ending_announced_at'),
  },
  (t) => [
    index('licenses_customer').on(t.customerId),
    uniqueIndex('licenses_checkout_session').on(t.checkoutSessionId),
    uniqueIndex('licenses_purchase').on(t.purchaseId),
    // Seller lists: newest first, whole or by product or by stored status, and by creation range.
    index('licenses_developer_issued').on(t.developerId, t.issuedAt, ID),
    index('licenses_developer_product_issued').on(t.developerId, t.productId, t.issuedAt, ID),
    index('licenses_developer_status_issued').on(t.developerId, t.status, t.issuedAt, ID),
    // status=expired lists by expiry, most recent first: a range, however few or many expired.
    index('licenses_developer_status_expiry').on(t.developerId, t.status, t.expiresAt, ID),
    // The expiry sweep: licenses past their end that no event announced yet.
    index('licenses_expiry_unannounced').on(t.expiresAt).where(sql`expiry_announced_at IS NULL AND expires_at IS NOT NULL`),
    // The trial-ending sweep: trials with an end that no trial.ending announced yet.
    index('licenses_trial_ending_unannounced').on(t.expiresAt).where(sql`trial AND trial_ending_announced_at IS NULL AND expires_at IS NOT NULL`),
  ],
);

/** Keys a license had before a renewal re-signed it: still recognized online, answered with the current key. */
export const retiredLicenseKeys = pgTable(
  'retired_license_keys',
  {
    keyHash: text('key_hash').primaryKey(),
    licenseId: licenseId(),
    retiredAt: millis('retired_at').notNull(),
  },
  (t) => [index('retired_license_keys_license').on(t.licenseId)],
);

/** Trials given: one per (product, customer e-mail) and one per (product, machine), enforced by the key. */
export const trialClaims = pgTable(
  'trial_claims',
  {
    productId: productId(),
    kind: text('kind', { enum: TRIAL_CLAIM_KINDS }).notNull(),
    /** The normalized e-mail, or the machine fingerprint. */
    value: text('value').notNull(),
    licenseId: licenseId(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.productId, t.kind, t.value] })],
);

/** A seller's customers: who bought or was granted something from this seller (written with each new license). */
export const developerCustomers = pgTable(
  'developer_customers',
  {
    developerId: developerId(),
    customerId: customerId(),
    /** Copied from customers (e-mails never change): searched by prefix within one seller. */
    email: text('email').notNull(),
    firstSeenAt: millis('first_seen_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.developerId, t.customerId] }),
    index('developer_customers_email').on(t.developerId, byteOrder(t.email)),
    index('developer_customers_order').on(t.developerId, t.firstSeenAt, byteOrder(t.customerId)),
  ],
);

/** Money in: a completed checkout, a paid terminal purchase or a paid subscription invoice. */
export const orders = pgTable(
  'orders',
  {
    id: id(),
    developerId: developerId(),
    customerId: customerId(),
    productId: productId(),
    licenseId: text('license_id').notNull(),
    source: text('source', { enum: ORDER_SOURCES }).notNull(),
    /** The checkout session, purchase or invoice it records: one order each. */
    sourceId: text('source_id').notNull().unique(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    processor: text('processor', { enum: PROCESSOR_KINDS }).notNull(),
    /** The processor's payment (PaymentIntent) id, when it has one. */
    paymentId: text('payment_id'),
    /** The processor's checkout session, or invoice, id. */
    processorReference: text('processor_reference'),
    status: text('status', { enum: ORDER_STATUSES }).notNull(),
    createdAt: createdAt(),
    /** How much of amount went back (refunds, a lost dispute); status becomes refunded when all of it did. */
    amountRefunded: integer('amount_refunded').notNull().default(0),
    /** When money last went back. */
    refundedAt: millis('refunded_at'),
    /** A renewal's paid period (null for other orders). */
    periodStart: millis('period_start'),
    periodEnd: millis('period_end'),
    /** Where the buyer reads the receipt at the processor (Stripe's charge receipt or hosted invoice); null = none (sandbox: the service's own page). */
    receiptUrl: text('receipt_url'),
  },
  (t) => [
    index('orders_developer_order').on(t.developerId, t.createdAt, ID),
    index('orders_developer_product').on(t.developerId, t.productId, t.createdAt, ID),
    index('orders_developer_customer').on(t.developerId, t.customerId, t.createdAt, ID),
    index('orders_payment').on(t.paymentId),
    index('orders_license').on(t.licenseId),
    index('orders_customer').on(t.customerId, t.createdAt),
  ],
);

/**
 * Money a processor reported gone back, per payment and account, whether or not an order of it
 * exists yet: an order recorded later (a refund delivered before its checkout's or invoice's
 * event) reads it and settles it. `refunded` only rises; `allRefunded` (a full refund or a lost
 * dispute) only becomes true. `accountId` is '' for an event that names none.
 */
export const paymentReversals = pgTable(
  'payment_reversals',
  {
    paymentId: text('payment_id').notNull(),
    accountId: text('account_id').notNull(),
    /** The invoice the payment paid, when known: a renewal recorded without its payment is found by it. */
    invoiceId: text('invoice_id'),
    refunded: integer('refunded').notNull(),
    allRefunded: boolean('all_refunded').notNull(),
    recordedAt: millis('recorded_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.paymentId, t.accountId] }), index('payment_reversals_invoice').on(t.invoiceId)],
);

/** A recurring product's subscription: each paid period extends its license. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    developerId: developerId(),
    customerId: customerId(),
    productId: productId(),
    licenseId: text('license_id').notNull().unique(),
    processor: text('processor', { enum: PROCESSOR_KINDS }).notNull(),
    processorSubscriptionId: text('processor_subscription_id').notNull().unique(),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
    interval: text('interval', { enum: BILLING_INTERVALS }).notNull(),
    currentPeriodEnd: millis('current_period_end').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** The end of its free trial (null = none): its first charge. */
    trialEnd: millis('trial_end'),
    createdAt: createdAt(),
    updatedAt: millis('updated_at').notNull(),
    canceledAt: millis('canceled_at'),
    /** A buyer's cancel or resume in flight at the processor since then (null = none): one at a time, so the processor hears each change once. */
    changeClaimedAt: millis('change_claimed_at'),
  },
  (t) => [index('subscriptions_developer_order').on(t.developerId, t.createdAt, ID), index('subscriptions_customer').on(t.customerId, t.createdAt)],
);

/** Where a seller wants to hear about events (Standard Webhooks). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id(),
    developerId: developerId(),
    url: text('url').notNull(),
    description: text('description'),
    /** JSON array of event types; null = every event. */
    events: jsonb('events').$type<string[] | null>(),
    /** The signing secret (whsec_…), sealed with the master key. */
    sealedSecret: text('sealed_secret').notNull(),
    enabled: boolean('enabled').notNull(),
    /** Why it was disabled: by the seller, or by the service after failing for days. */
    disabledReason: text('disabled_reason'),
    /** Since when every delivery to it failed (null = its last delivery succeeded). */
    failingSince: millis('failing_since'),
    createdAt: createdAt(),
    updatedAt: millis('updated_at').notNull(),
  },
  (t) => [index('webhook_endpoints_developer').on(t.developerId, t.createdAt, ID)],
);

/** The outbox: every event, written by the application in the transaction of the change it reports. */
export const outgoingEvents = pgTable(
  'outgoing_events',
  {
    id: id(),
    developerId: text('developer_id').notNull(),
    type: text('type').notNull(),
    /** The event's `data`, JSON. */
    data: jsonb('data').notNull(),
    createdAt: createdAt(),
    /** The license the event is about (license.*, trial.ending, activation.*, order.*, subscription.*): a license's event list. */
    licenseId: text('license_id'),
  },
  (t) => [
    index('outgoing_events_developer_order').on(t.developerId, t.createdAt, ID),
    index('outgoing_events_created').on(t.createdAt),
    index('outgoing_events_license_order').on(t.licenseId, t.createdAt, ID),
  ],
);

/** One event to one endpoint: written with the event, then worked by the dispatcher. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    eventId: text('event_id').notNull(),
    endpointId: text('endpoint_id').notNull(),
    developerId: text('developer_id').notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: millis('next_attempt_at').notNull(),
    /** A claim: whoever took it delivers until then; past it (a crash), another sender may. */
    lockedUntil: millis('locked_until'),
    lastAttemptAt: millis('last_attempt_at'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_endpoint').on(t.eventId, t.endpointId),
    index('webhook_deliveries_due').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_endpoint_order').on(t.endpointId, t.createdAt, ID),
  ],
);

/** Every attempt of a delivery: the log a seller reads. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: serialId(),
    deliveryId: text('delivery_id').notNull(),
    attemptedAt: millis('attempted_at').notNull(),
    /** The endpoint's HTTP status; null when none came (timeout, refused, blocked address). */
    status: integer('status'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [index('webhook_attempts_delivery').on(t.deliveryId, t.attemptedAt)],
);

/** One row per machine a license runs on: at most one per (license, fingerprint). */
export const activations = pgTable(
  'activations',
  {
    id: id(),
    licenseId: licenseId(),
    machineFingerprint: text('machine_fingerprint').notNull(),
    name: text('name'),
    createdAt: createdAt(),
    lastSeenAt: millis('last_seen_at').notNull(),
  },
  (t) => [uniqueIndex('activations_license_fingerprint').on(t.licenseId, t.machineFingerprint)],
);

/** Deactivations by the license's holder, counted against the product's rolling 30-day quota. */
export const deactivations = pgTable(
  'deactivations',
  {
    activationId: text('activation_id').primaryKey(),
    licenseId: licenseId(),
    removedAt: millis('removed_at').notNull(),
  },
  (t) => [index('deactivations_license').on(t.licenseId, t.removedAt), index('deactivations_removed').on(t.removedAt)],
);

export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: id(),
    developerId: developerId(),
    productId: productId(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    email: text('email'),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    processor: text('processor', { enum: PROCESSOR_KINDS }).notNull(),
    processorSessionId: text('processor_session_id').unique(),
    checkoutUrl: text('checkout_url'),
    status: text('status', { enum: CHECKOUT_STATUSES }).notNull(),
    createdAt: createdAt(),
    expiresAt: expiresAt(),
    completedAt: millis('completed_at'),
    // No foreign keys on license and customer: the completion is recorded by whoever wins, in any order.
    licenseId: text('license_id'),
    customerId: text('customer_id'),
    paymentId: text('payment_id'),
    reconciledAt: millis('reconciled_at'),
  },
  (t) => [index('checkout_sessions_payment').on(t.paymentId), index('checkout_sessions_expiry').on(t.status, t.expiresAt)],
);

export const connectStates = pgTable(
  'connect_states',
  {
    stateHash: text('state_hash').primaryKey(),
    developerId: developerId(),
    expiresAt: expiresAt(),
    usedAt: millis('used_at'),
  },
  (t) => [index('connect_states_expiry').on(t.expiresAt)],
);

export const processorAccounts = pgTable(
  'processor_accounts',
  {
    developerId: text('developer_id').primaryKey().references(() => developers.id),
    accountId: text('account_id').notNull(),
    connectedAt: millis('connected_at').notNull(),
  },
  (t) => [index('processor_accounts_account').on(t.accountId)],
);

export const savedCards = pgTable(
  'saved_cards',
  {
    id: id(),
    customerId: customerId(),
    developerId: developerId(),
    processorCustomerId: text('processor_customer_id'),
    processorPaymentMethodId: text('processor_payment_method_id').notNull(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    /** The phone the saving checkout brought: the card is offered only to a sign-in proven through this phone. */
    phone: text('phone'),
    createdAt: createdAt(),
    seq: insertionOrder(),
  },
  (t) => [
    uniqueIndex('saved_cards_payment_method').on(t.developerId, t.processorPaymentMethodId),
    index('saved_cards_customer_order').on(t.customerId, t.developerId, t.createdAt),
  ],
);

/** Stripe's incoming webhook events already claimed, so a redelivery is handled once. The table keeps its first name. */
export const incomingWebhookEvents = pgTable('webhook_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: millis('received_at').notNull(),
});

export const otpChallenges = pgTable(
  'otp_challenges',
  {
    id: id(),
    scope: text('scope', { enum: OTP_SCOPES }).notNull(),
    /** The normalized e-mail (login) or the purchase id (purchase). */
    subject: text('subject').notNull(),
    /** null for an e-mail with no customer: the look-alike challenge no code can pass. */
    customerId: text('customer_id').references(() => customers.id),
    codeDigest: text('code_digest').notNull(),
    createdAt: createdAt(),
    expiresAt: expiresAt(),
    attempts: integer('attempts').notNull(),
    usedAt: millis('used_at'),
  },
  (t) => [index('otp_challenges_sends').on(t.scope, t.subject, t.createdAt), index('otp_challenges_expiry').on(t.expiresAt)],
);

export const loginFailures = pgTable(
  'login_failures',
  {
    /** A customer id, or the look-alike key of an e-mail with no customer (so it locks the same): no foreign key. */
    customerId: text('customer_id').primaryKey(),
    consecutive: integer('consecutive').notNull(),
    lockedUntil: millis('locked_until'),
    /**
     * The last attempt or reset (retention counts from it). 0 only for a row an older release wrote
     * during an upgrade: the sweep then takes it once any lock has long run out.
     */
    updatedAt: millis('updated_at').notNull().default(0),
  },
  (t) => [index('login_failures_updated').on(t.updatedAt)],
);

export const identityTokens = pgTable(
  'identity_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    customerId: customerId(),
    deviceFingerprint: text('device_fingerprint').notNull(),
    createdAt: createdAt(),
    expiresAt: expiresAt(),
    revokedAt: millis('revoked_at'),
  },
  (t) => [index('identity_tokens_expiry').on(t.expiresAt)],
);

export const purchases = pgTable(
  'purchases',
  {
    id: id(),
    customerId: customerId(),
    developerId: developerId(),
    productId: productId(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: PURCHASE_STATUSES }).notNull(),
    attempt: integer('attempt').notNull(),
    chargingSince: millis('charging_since'),
    cardId: text('card_id').references(() => savedCards.id),
    paymentId: text('payment_id'),
    // No foreign key: a use case may record the license id before or after the license row is written.
    licenseId: text('license_id'),
    createdAt: createdAt(),
  },
  (t) => [index('purchases_payment').on(t.paymentId), index('purchases_retention').on(t.status, t.createdAt)],
);

export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: serialId(),
    to: text('to').notNull(),
    body: text('body').notNull(),
    sentAt: millis('sent_at').notNull(),
  },
  (t) => [index('sms_outbox_recipient').on(t.to, t.sentAt), index('sms_outbox_sent').on(t.sentAt)],
);

/**
 * Mail waiting to go out: written in the transaction of the change it reports (a receipt with its
 * license), sent by the mail sweeper, retried with backoff. A claim moves next_attempt_at past the
 * send's lease, so a crashed sender's mail comes back once the lease ends. mail_outbox_due holds
 * created_at too: the claim's order and the metrics' backlog (count, oldest) are read from it alone.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    /** The kind of mail, e.g. receipt: for logs and the retention sweep. */
    kind: text('kind').notNull(),
    /** The license it is about, if any (receipts, resends). */
    licenseId: text('license_id'),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: millis('next_attempt_at').notNull(),
    lastError: text('last_error'),
    sentAt: millis('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [index('mail_outbox_due').on(t.sentAt, t.nextAttemptAt, t.createdAt), index('mail_outbox_license').on(t.licenseId, t.createdAt)],
);

/** The sandbox's kept mail: what would have been sent, newest first per recipient (GET /v1/sandbox/mail). */
export const sandboxMail = pgTable(
  'sandbox_mail',
  {
    id: serialId(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    sentAt: millis('sent_at').notNull(),
  },
  (t) => [index('sandbox_mail_recipient').on(t.to, t.sentAt), index('sandbox_mail_sent').on(t.sentAt)],
);

/** A trial asked for with a publishable key: it starts once the code e-mailed to its address is entered (POST /trials/confirm). */
export const trialRequests = pgTable('trial_requests', {
  id: id(),
  developerId: text('developer_id').notNull(),
  productId: text('product_id').notNull(),
  email: text('email').notNull(),
  machineFingerprint: text('machine_fingerprint').notNull(),
  name: text('name'),
  createdAt: createdAt(),
  expiresAt: expiresAt(),
  /** Set once, by the confirmation that started the trial. */
  confirmedAt: millis('confirmed_at'),
});

/** Idempotency-Key records (docs/api-rules.md): the first answer to a key, kept 24 hours. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** Who used the key: a developer, a customer, or a publishable key's developer and route. */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** Method and route pattern the key was first used on. */
    route: text('route').notNull(),
    /** SHA-256 of the canonical path parameters and body. */
    digest: text('digest').notNull(),
    status: text('status', { enum: IDEMPOTENCY_STATUSES }).notNull(),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    /**
     * What the guarded write created (`license`, `product`, `checkout`…), set in that write's own
     * transaction: a retry after a crash rebuilds the answer from it instead of writing again.
     */
    objectKind: text('object_kind'),
    objectId: text('object_id'),
    /** Refreshed while the first request runs: a claim left unrefreshed, with no object, was lost with its process. */
    heartbeatAt: millis('heartbeat_at'),
    createdAt: createdAt(),
    expiresAt: expiresAt(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_expiry').on(t.expiresAt)],
);

/** Seller console sessions (docs/console-sign-in.md): the cookie's token only as its digest. */
export const consoleSessions = pgTable(
  'console_sessions',
  {
    id: id(),
    developerId: developerId(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    lastUsedAt: millis('last_used_at').notNull(),
    expiresAt: expiresAt(),
    revokedAt: millis('revoked_at'),
    userAgent: text('user_agent').notNull(),
    clientAddress: text('client_address').notNull(),
    how: text('how', { enum: SIGN_IN_METHODS }).notNull(),
  },
  (t) => [index('console_sessions_developer').on(t.developerId, t.createdAt), index('console_sessions_expiry').on(t.expiresAt)],
);

/** Sellers' passkeys (WebAuthn credentials): the public key, the counter last seen. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: id(),
    developerId: developerId(),
    credentialId: text('credential_id').notNull().unique(),
    publicKey: text('public_key').notNull(),
    counter: millis('counter').notNull(),
    /** JSON array of the authenticator's transports. */
    transports: text('transports').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: millis('last_used_at'),
    revokedAt: millis('revoked_at'),
    /** Which of the seller's PASSKEY_LIMITS.perDeveloper places it holds: no two live passkeys share one, so the cap is the store's. */
    slot: integer('slot').notNull().default(0),
  },
  (t) => [index('passkeys_developer').on(t.developerId, t.createdAt), uniqueIndex('passkeys_live_slot').on(t.developerId, t.slot).where(sql`revoked_at IS NULL`)],
);

/** WebAuthn ceremonies' challenges: single use, 5 minutes, in the store so any instance checks them. */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: id(),
    purpose: text('purpose', { enum: CHALLENGE_PURPOSES }).notNull(),
    developerId: text('developer_id').references(() => developers.id),
    challenge: text('challenge').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: expiresAt(),
    usedAt: millis('used_at'),
  },
  (t) => [index('webauthn_challenges_expiry').on(t.expiresAt)],
);

/**
 * The console's rollups (docs/console-api.md), moved in the transaction of each change that
 * counts in them (src/domain/stats-rollups.ts says by how much). Per seller, UTC day (days since the
 * epoch) and currency: licenses issued (on the currency '' row), orders made, their amounts and what
 * went back of them (on the day of the order).
 */
export const dailyStats = pgTable(
  'daily_stats',
  {
    developerId: text('developer_id').notNull(),
    day: integer('day').notNull(),
    currency: text('currency').notNull(),
    newLicenses: integer('new_licenses').notNull().default(0),
    orders: integer('orders').notNull().default(0),
    revenue: bigint('revenue', { mode: 'number' }).notNull().default(0),
    refunded: bigint('refunded', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.developerId, t.day, t.currency] })],
);

/** Not-revoked licenses and their machines by UTC day of expiry (perpetual ones on day 2147483647): active = the days after today, plus today's part. */
export const licenseExpiryDays = pgTable(
  'license_expiry_days',
  {
    developerId: text('developer_id').notNull(),
    day: integer('day').notNull(),
    licenses: integer('licenses').notNull().default(0),
    machines: integer('machines').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.developerId, t.day] })],
);

/** Subscriptions not canceled, per product and interval: monthly recurring revenue at the products' prices. */
export const subscriptionCounts = pgTable(
  'subscription_counts',
  {
    developerId: text('developer_id').notNull(),
    productId: text('product_id').notNull(),
    interval: text('interval', { enum: BILLING_INTERVALS }).notNull(),
    subscriptions: integer('subscriptions').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.developerId, t.productId, t.interval] })],
);

/** Every machine file issued (docs/machine-files.md): the seller's list and the per-license daily limit. */
export const machineFiles = pgTable(
  'machine_files',
  {
    id: id(),
    licenseId: licenseId(),
    /** Lower-case hex SHA-256 of the machine fingerprint, as the file carries it. */
    fingerprintHash: text('fingerprint_hash').notNull(),
    issuedAt: millis('issued_at').notNull(),
    expiresAt: expiresAt(),
  },
  (t) => [index('machine_files_license').on(t.licenseId, t.issuedAt, t.id)],
);

/** Floating leases (docs/leases.md): one per license and machine; a lease past expires_at counts for nothing. */
export const leases = pgTable(
  'leases',
  {
    id: id(),
    licenseId: licenseId(),
    machineFingerprint: text('machine_fingerprint').notNull(),
    createdAt: createdAt(),
    expiresAt: expiresAt(),
    /** Borrowed for offline use: no heartbeat expected before expires_at. */
    borrowed: boolean('borrowed').notNull().default(false),
  },
  (t) => [uniqueIndex('leases_license_fingerprint').on(t.licenseId, t.machineFingerprint), index('leases_expires').on(t.expiresAt)],
);

/** A license's own lease terms (docs/leases.md), set by its seller; a null field = the product's. */
export const licenseLeaseTerms = pgTable('license_lease_terms', {
  licenseId: text('license_id').primaryKey().references(() => licenses.id),
  maxLeases: integer('max_leases'),
  leaseSeconds: integer('lease_seconds'),
  maxBorrowHours: integer('max_borrow_hours'),
});
