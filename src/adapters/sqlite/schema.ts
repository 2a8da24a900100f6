import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const developers = sqliteTable('developers', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  createdAt: integer('created_at').notNull(),
});

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    developerId: text('developer_id').notNull().references(() => developers.id),
    scope: text('scope', { enum: ['secret', 'publishable'] }).notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: integer('created_at').notNull(),
    revokedAt: integer('revoked_at'),
  },
  (t) => [index('api_keys_developer').on(t.developerId)],
);

export const signingKeys = sqliteTable(
  'signing_keys',
  {
    kid: text('kid').primaryKey(),
    developerId: text('developer_id').notNull().references(() => developers.id),
    publicKey: text('public_key').notNull(),
    sealedPrivateKey: text('sealed_private_key').notNull(),
    createdAt: integer('created_at').notNull(),
    active: integer('active', { mode: 'boolean' }).notNull(),
  },
  (t) => [index('signing_keys_developer').on(t.developerId, t.createdAt)],
);

export const products = sqliteTable(
  'products',
  {
    id: text('id').primaryKey(),
    developerId: text('developer_id').notNull().references(() => developers.id),
    name: text('name').notNull(),
    price: integer('price').notNull(),
    currency: text('currency').notNull(),
    features: text('features', { mode: 'json' }).$type<string[]>().notNull(),
    licenseDays: integer('license_days'),
    active: integer('active', { mode: 'boolean' }).notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('products_developer_order').on(t.developerId, t.createdAt, t.id)],
);

export const customers = sqliteTable('customers', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  phone: text('phone'),
  createdAt: integer('created_at').notNull(),
});

export const licenses = sqliteTable(
  'licenses',
  {
    id: text('id').primaryKey(),
    developerId: text('developer_id').notNull().references(() => developers.id),
    productId: text('product_id').notNull().references(() => products.id),
    customerId: text('customer_id').notNull().references(() => customers.id),
    status: text('status', { enum: ['active', 'revoked'] }).notNull(),
    features: text('features', { mode: 'json' }).$type<string[]>().notNull(),
    issuedAt: integer('issued_at').notNull(),
    expiresAt: integer('expires_at'),
    machineFingerprint: text('machine_fingerprint'),
    boundAt: integer('bound_at'),
    licenseKey: text('license_key').notNull(),
    keyHash: text('key_hash').notNull().unique(),
  },
  (t) => [index('licenses_customer').on(t.customerId), index('licenses_developer').on(t.developerId)],
);
