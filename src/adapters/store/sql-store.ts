import { and, eq, gt, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { PaymentMismatch } from '../../domain/events.ts';
import type { Product } from '../../domain/product.ts';
import type { Subscription } from '../../domain/subscription.ts';
import type { KeyRotation } from '../../ports/signing-key-repository.ts';
import { firstMachine as postgresFirstMachine } from './activations/postgres-activations.ts';
import type { PostgresDb } from '../postgres/postgres-store.ts';
import { postgresTransactions } from '../postgres/postgres-transactions.ts';
import * as pg from './tables.ts';
import { firstMachine as sqliteFirstMachine } from './activations/sqlite-activations.ts';
import type { SqliteDb } from '../sqlite/sqlite-store.ts';
import { sqliteTransactions } from '../sqlite/sqlite-transactions.ts';
import * as lite from '../sqlite/schema.ts';

/**
 * The tables the shared repositories read and write. SQLite's are derived from PostgreSQL's
 * declaration with the same columns (test/adapters/shared-schema.test.ts holds them to it), bar PostgreSQL's `seq`.
 */
export const SHARED_TABLES = [
  'connectStates', 'processorAccounts', 'identityTokens', 'incomingWebhookEvents', 'smsOutbox', 'otpChallenges',
  'loginFailures', 'purchases', 'licenses', 'checkoutSessions', 'products', 'savedCards', 'customers', 'signingKeys', 'orders', 'subscriptions',
  'mailOutbox', 'sandboxMail', 'trialRequests', 'idempotencyKeys', 'deactivations', 'consoleSessions', 'passkeys', 'webauthnChallenges',
  'apiKeys', 'activations', 'webhookEndpoints', 'webhookDeliveries', 'dailyStats', 'licenseExpiryDays', 'subscriptionCounts',
  'machineFiles', 'paymentReversals', 'leases', 'developers',
] as const;

/** Typed by the PostgreSQL declarations: their select and insert types are the SQLite ones too. */
export type SharedTables = Pick<typeof pg, (typeof SHARED_TABLES)[number]>;

/** What the shared repositories may ask of a database: the four statements, no transactions, no raw client. */
export type SqlQueries = Pick<PostgresDb, 'select' | 'insert' | 'update' | 'delete'>;

/** Where the two dialects write the same query differently. */
export interface SqlDialect {
  /** An id as lists order it: bytewise, as their indexes do. */
  byteOrder(id: SQLWrapper): SQLWrapper;
  /** The keyset condition `(createdAt, id) > cursor`, in the form the dialect's index range reads. */
  after(createdAt: PgColumn, id: PgColumn, cursor: { createdAt: number; id: string }): SQL;
  /** Insertion order, the tie-break of rows made in the same millisecond: SQLite's rowid, PostgreSQL's `seq`. */
  insertionOrder(table: SharedTables['savedCards'] | SharedTables['signingKeys']): SQLWrapper;
  /** A value bound into an expression: PostgreSQL wants its type said, SQLite stores a boolean as 0 or 1. */
  bound(value: number, type: 'bigint' | 'integer'): SQL;
  bound(value: string, type: 'text'): SQL;
  bound(value: boolean, type: 'boolean'): SQL;
  /** The larger of two values: SQLite's two-argument MAX, PostgreSQL's GREATEST. */
  greatest(a: SQLWrapper, b: SQLWrapper): SQL;
  /** The rows a batch delete picks: PostgreSQL skips the ones another sweeper holds. */
  pickForDelete(query: PgSelect): PgSelect;
  /** `a` equals `b`, null equal to null. */
  same(a: SQLWrapper, b: unknown): SQL;
  /** License.machineFingerprint: the machine of a license's oldest activation, ids in byte order. */
  firstMachine: SQL<string | null>;
}

/**
 * The shared repositories' writes that need a transaction. bun:sqlite runs a transaction
 * synchronously, so no awaited code can sit inside one: each dialect writes these itself.
 */
export interface SqlTransactions extends SubscriptionWrites {
  /** `from` becomes `to` only while it is still the phone on file, with the cards saved under it; false if not. */
  changePhone(customerId: string, from: string, to: string, at: number): Promise<boolean>;
  /** SigningKeyRepository.rotate: only while `after` is the head; false when it no longer is. */
  rotateSigningKey(rotation: KeyRotation): Promise<boolean>;
  /** ProductRepository.create, linking the request's Idempotency-Key (if any) to it in the same transaction. */
  insertProduct(product: Product): Promise<void>;
}

/** A subscription's writes, each in one transaction with the events it announces (events.ts) and the console rollups it moves (stats-rollups.ts). */
export interface SubscriptionWrites {
  /** The row, unless its processor subscription is recorded already, and subscription.created; true when written. */
  insertSubscription(subscription: Subscription): Promise<boolean>;
  /**
   * The subscription `key` finds, held for the transaction, updated with `set` where `condition`
   * holds, and the events the change announces; the row after, or null when none was updated.
   */
  changeSubscription(key: SQL, set: Record<string, unknown>, condition?: SQL): Promise<Subscription | null>;
  /** subscription.payment_mismatch of the subscription, in a transaction of its own (it changes nothing else). */
  reportPaymentMismatch(subscription: Subscription, mismatch: PaymentMismatch): Promise<void>;
}

export interface SqlStore {
  db: SqlQueries;
  tables: SharedTables;
  dialect: SqlDialect;
  transactions: SqlTransactions;
}

const SQLITE: SqlDialect = {
  byteOrder: (id) => id,
  after: (createdAt, id, cursor) => or(gt(createdAt, cursor.createdAt), and(eq(createdAt, cursor.createdAt), gt(id, cursor.id)))!,
  insertionOrder: () => sql`rowid`,
  bound: (value: number | string | boolean) => (typeof value === 'boolean' ? sql`${value ? 1 : 0}` : sql`${value}`),
  greatest: (a, b) => sql`MAX(${a}, ${b})`,
  pickForDelete: (query) => query,
  same: (a, b) => sql`${a} IS ${b}`,
  firstMachine: sqliteFirstMachine,
};

/** What a statement built for either dialect needs of it: its tables and its forms. */
export const SQLITE_PARTS = { tables: lite as unknown as SharedTables, dialect: SQLITE };

/**
 * The SQLite database seen as the shared query interface. The one cast between dialects: drizzle
 * types its SQLite and PostgreSQL builders apart, but the statements the shared repositories build
 * (select, insert with conflict targets, update, delete, returning, awaited) run the same on both,
 * over tables whose columns map to the same values. Each awaited statement runs through `.all()` or
 * `.run()`, never `.get()`, which would keep the WAL from checkpointing. What the view lets through
 * but SQLite lacks (`.for()` row locks, PostgreSQL's `seq` columns) is reached only through the hooks.
 */
export function sqliteSqlStore(db: SqliteDb): SqlStore {
  const view = { db, tables: lite } as unknown as Pick<SqlStore, 'db' | 'tables'>;
  return { ...view, dialect: SQLITE, transactions: sqliteTransactions(db) };
}

const byteOrder = (id: SQLWrapper) => sql`${id} COLLATE "C"`;

const POSTGRES: SqlDialect = {
  byteOrder,
  after: (createdAt, id, cursor) => sql`(${createdAt}, ${byteOrder(id)}) > (${cursor.createdAt}, ${cursor.id})`,
  insertionOrder: (table) => table.seq,
  bound: (value: number | string | boolean, type: string) => sql`${value}::${sql.raw(type)}`,
  greatest: (a, b) => sql`GREATEST(${a}, ${b})`,
  pickForDelete: (query) => query.for('update', { skipLocked: true }),
  same: (a, b) => sql`${a} IS NOT DISTINCT FROM ${b}`,
  firstMachine: postgresFirstMachine,
};

export const POSTGRES_PARTS = { tables: pg as SharedTables, dialect: POSTGRES };

export function postgresSqlStore(db: PostgresDb): SqlStore {
  return { db, tables: pg, dialect: POSTGRES, transactions: postgresTransactions(db) };
}

/** The one row a query found, or null. */
export async function oneOrNull<T>(rows: PromiseLike<T[]>): Promise<T | null> {
  const [row] = await rows;
  return row ?? null;
}
