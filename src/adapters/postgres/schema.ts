import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

// The SQLite schema, table for table. Times are Unix milliseconds in bigint; `seq` columns stand in
// for SQLite's rowid where a list breaks ties by insertion order. Ids are compared and ordered under
// COLLATE "C" wherever order matters, so every store sorts them bytewise, whatever the database default.
const millis = (name: string) => bigint(name, { mode: 'number' });
const insertionOrder = () => bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull();

export const developers = pgTable('developers', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  createdAt: millis('created_at').notNull(),
});

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    developerId: text('developer_id').notNull().references(() => developers.id),
    scope: text('scope', { enum: ['secret', 'publishable'] }).notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: millis('created_at').notNull(),
    revokedAt: millis('revoked_at'),
  },
  (t) => [index('api_keys_developer').on(t.developerId)],
);

export const signingKeys = pgTable(
  'signing_keys',
  {
    kid: text('kid').primaryKey(),
    developerId: text('developer_id').notNull().references(() => developers.id),
    publicKey: text('public_key').notNull(),
    sealedPrivateKey: text('sealed_private_key').notNull(),
    createdAt: millis('created_at').notNull(),
    active: boolean('active').notNull(),
    seq: insertionOrder(),
  },
  (t) => [
    index('signing_keys_developer').on(t.developerId, t.createdAt),
    // At most one active key per developer, whoever writes: what SQLite's single writer gives for free.
    uniqueIndex('signing_keys_one_active').on(t.developerId).where(sql`${t.active}`),
  ],
);

export const products = pgTable(
  'products',
  {
    id: text('id').primaryKey(),
    developerId: text('developer_id').notNull().references(() => developers.id),
    name: text('name').notNull(),
    price: integer('price').notNull(),
    currency: text('currency').notNull(),
    features: jsonb('features').$type<string[]>().notNull(),
    licenseDays: integer('license_days'),
    /** Machines per license issued from now on; null = unlimited. */
    maxMachines: integer('max_machines').default(1),
    /** Holder-initiated deactivations allowed per license per rolling 30 days. */
    deactivationsPer30Days: integer('deactivations_per_30_days').notNull().default(3),
    active: boolean('active').notNull(),
    createdAt: millis('created_at').notNull(),
    updatedAt: millis('updated_at').notNull(),
  },
  (t) => [index('products_developer_order').on(t.developerId, t.createdAt, sql`${t.id} COLLATE "C"`)],
);

export const customers = pgTable('customers', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  phone: text('phone'),
  createdAt: millis('created_at').notNull(),
});

export const licenses = pgTable(
  'licenses',
  {
    id: text('id').primaryKey(),
    developerId: text('developer_id').notNull().references(() => developers.id),
    productId: text('product_id').notNull().references(() => products.id),
    customerId: text('customer_id').notNull().references(() => customers.id),
    status: text('status', { enum: ['active', 'revoked'] }).notNull(),
    features: jsonb('features').$type<string[]>().notNull(),
    issuedAt: millis('issued_at').notNull(),
    expiresAt: millis('expires_at'),
    /** Before activations (0002): the one bound machine. Copied into `activations`; neither read nor written since. */
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
  },
  (t) => [
    index('licenses_customer').on(t.customerId),
    index('licenses_developer').on(t.developerId),
    uniqueIndex('licenses_checkout_session').on(t.checkoutSessionId),
    uniqueIndex('licenses_purchase').on(t.purchaseId),
  ],
);

/** One row per machine a license runs on: at most one per (license, fingerprint). */
export const activations = pgTable(
  'activations',
  {
    id: text('id').primaryKey(),
    licenseId: text('license_id').notNull().references(() => licenses.id),
    machineFingerprint: text('machine_fingerprint').notNull(),
    name: text('name'),
    createdAt: millis('created_at').notNull(),
    lastSeenAt: millis('last_seen_at').notNull(),
  },
  (t) => [uniqueIndex('activations_license_fingerprint').on(t.licenseId, t.machineFingerprint)],
);

/** Deactivations by the license's holder, counted against the product's rolling 30-day quota. */
export const deactivations = pgTable(
  'deactivations',
  {
    activationId: text('activation_id').primaryKey(),
    licenseId: text('license_id').notNull().references(() => licenses.id),
    removedAt: millis('removed_at').notNull(),
  },
  (t) => [index('deactivations_license').on(t.licenseId, t.removedAt)],
);

export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    developerId: text('developer_id').notNull().references(() => developers.id),
    productId: text('product_id').notNull().references(() => products.id),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    email: text('email'),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    processor: text('processor', { enum: ['sandbox', 'stripe'] }).notNull(),
    processorSessionId: text('processor_session_id').unique(),
    checkoutUrl: text('checkout_url'),
    status: text('status', { enum: ['pending', 'complete', 'expired'] }).notNull(),
    createdAt: millis('created_at').notNull(),
    expiresAt: millis('expires_at').notNull(),
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
    developerId: text('developer_id').notNull().references(() => developers.id),
    expiresAt: millis('expires_at').notNull(),
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
    id: text('id').primaryKey(),
    customerId: text('customer_id').notNull().references(() => customers.id),
    developerId: text('developer_id').notNull().references(() => developers.id),
    processorCustomerId: text('processor_customer_id'),
    processorPaymentMethodId: text('processor_payment_method_id').notNull(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    /** The phone the saving checkout brought: the card is offered only to a sign-in proven through this phone. */
    phone: text('phone'),
    createdAt: millis('created_at').notNull(),
    seq: insertionOrder(),
  },
  (t) => [
    uniqueIndex('saved_cards_payment_method').on(t.developerId, t.processorPaymentMethodId),
    index('saved_cards_customer_order').on(t.customerId, t.developerId, t.createdAt),
  ],
);

export const webhookEvents = pgTable('webhook_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: millis('received_at').notNull(),
});

export const otpChallenges = pgTable(
  'otp_challenges',
  {
    id: text('id').primaryKey(),
    scope: text('scope', { enum: ['login', 'purchase', 'phone'] }).notNull(),
    /** The normalized e-mail (login) or the purchase id (purchase). */
    subject: text('subject').notNull(),
    /** null for an e-mail with no customer: the look-alike challenge no code can pass. */
    customerId: text('customer_id').references(() => customers.id),
    codeDigest: text('code_digest').notNull(),
    createdAt: millis('created_at').notNull(),
    expiresAt: millis('expires_at').notNull(),
    attempts: integer('attempts').notNull(),
    usedAt: millis('used_at'),
  },
  (t) => [index('otp_challenges_sends').on(t.scope, t.subject, t.createdAt), index('otp_challenges_expiry').on(t.expiresAt)],
);

export const loginFailures = pgTable('login_failures', {
  /** A customer id, or the look-alike key of an e-mail with no customer (so it locks the same): no foreign key. */
  customerId: text('customer_id').primaryKey(),
  consecutive: integer('consecutive').notNull(),
  lockedUntil: millis('locked_until'),
});

export const identityTokens = pgTable(
  'identity_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    customerId: text('customer_id').notNull().references(() => customers.id),
    deviceFingerprint: text('device_fingerprint').notNull(),
    createdAt: millis('created_at').notNull(),
    expiresAt: millis('expires_at').notNull(),
    revokedAt: millis('revoked_at'),
  },
  (t) => [index('identity_tokens_expiry').on(t.expiresAt)],
);

export const purchases = pgTable(
  'purchases',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id').notNull().references(() => customers.id),
    developerId: text('developer_id').notNull().references(() => developers.id),
    productId: text('product_id').notNull().references(() => products.id),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['pending', 'charging', 'paid'] }).notNull(),
    attempt: integer('attempt').notNull(),
    chargingSince: millis('charging_since'),
    cardId: text('card_id').references(() => savedCards.id),
    paymentId: text('payment_id'),
    // No foreign key: a use case may record the license id before or after the license row is written.
    licenseId: text('license_id'),
    createdAt: millis('created_at').notNull(),
  },
  (t) => [index('purchases_payment').on(t.paymentId), index('purchases_retention').on(t.status, t.createdAt)],
);

export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    to: text('to').notNull(),
    body: text('body').notNull(),
    sentAt: millis('sent_at').notNull(),
  },
  (t) => [index('sms_outbox_recipient').on(t.to, t.sentAt), index('sms_outbox_sent').on(t.sentAt)],
);
