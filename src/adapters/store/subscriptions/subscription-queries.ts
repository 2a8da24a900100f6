import type { PaymentMismatch } from '../../../domain/events.ts';
import { and, asc, desc, eq, getTableColumns, isNull, lte, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Subscription, SubscriptionChange } from '../../../domain/subscription.ts';
import type { SubscriptionListQuery, SubscriptionPage, SubscriptionRepository } from '../../../ports/subscription-repository.ts';
import { oneOrNull, type SqlDialect, type SqlStore } from '../sql-store.ts';

// Every write is one conditional statement on one row, in a transaction holding that row with the
// events it announces (SubscriptionWrites: PostgreSQL's row lock orders concurrent deliveries; SQLite
// has one writer), so the rules of applySubscriptionChange hold however they interleave and each
// change is announced once.
export class DrizzleSubscriptionRepository implements SubscriptionRepository {
  constructor(private readonly store: SqlStore) {}

  async create(subscription: Subscription): Promise<Subscription> {
    // The processor's id decides: of concurrent records one inserts (and announces
    // subscription.created), every caller reads that one. A second subscription for one license is a
    // unique violation, thrown as it is.
    try {
      await this.store.transactions.insertSubscription(subscription);
    } catch (error) {
      // PostgreSQL arbitrates the conflict on the named index only: a concurrent record of the same
      // processor subscription, not yet committed, can meet this one on license_id first and fail
      // it. That row is the one every caller gets; any other violation is thrown as it is.
      const raced = await this.findByProcessorId(subscription.processorSubscriptionId);
      if (raced?.licenseId === subscription.licenseId) return raced;
      throw error;
    }
    const stored = await this.findByProcessorId(subscription.processorSubscriptionId);
    if (!stored) throw new Error('subscriptions: the row just written is missing');
    return stored;
  }

  async findByProcessorId(processorSubscriptionId: string): Promise<Subscription | null> {
    return this.findOne(eq(this.store.tables.subscriptions.processorSubscriptionId, processorSubscriptionId));
  }

  async findByLicense(licenseId: string): Promise<Subscription | null> {
    return this.findOne(eq(this.store.tables.subscriptions.licenseId, licenseId));
  }

  async findById(developerId: string, id: string): Promise<Subscription | null> {
    const { subscriptions: s } = this.store.tables;
    return this.findOne(and(eq(s.id, id), eq(s.developerId, developerId))!);
  }

  async update(processorSubscriptionId: string, change: SubscriptionChange): Promise<Subscription | null> {
    const { subscriptions: s } = this.store.tables;
    return this.store.transactions.changeSubscription(eq(s.processorSubscriptionId, processorSubscriptionId), changeSet(this.store.dialect, change));
  }

  /** Only a live subscription changes; the answer is read after, whatever it holds. */
  reportPaymentMismatch(subscription: Subscription, mismatch: PaymentMismatch): Promise<void> {
    return this.store.transactions.reportPaymentMismatch(subscription, mismatch);
  }

  async markCancelAtPeriodEnd(developerId: string, id: string, at: number): Promise<Subscription | null> {
    const { transactions, tables: { subscriptions: s }, dialect } = this.store;
    const set = { cancelAtPeriodEnd: true, updatedAt: dialect.greatest(sql`"updated_at"`, dialect.bound(at, 'bigint')) };
    await transactions.changeSubscription(and(eq(s.id, id), eq(s.developerId, developerId))!, set, ne(s.status, 'canceled'));
    return this.findById(developerId, id);
  }

  async listByDeveloper(developerId: string, query: SubscriptionListQuery): Promise<SubscriptionPage> {
    const rows = await subscriptionListQuery(this.store, developerId, query);
    const data = rows.slice(0, query.limit).map((row) => ({ ...row.subscription, customerEmail: row.customerEmail }));
    return { data, hasMore: rows.length > query.limit };
  }

  async listDueSandbox(developerId: string, at: number, limit: number): Promise<Subscription[]> {
    const { db, tables: { subscriptions: s }, dialect } = this.store;
    return db
      .select(subscriptionColumns(this.store.tables.subscriptions))
      .from(s)
      .where(and(eq(s.developerId, developerId), eq(s.processor, 'sandbox'), ne(s.status, 'canceled'), lte(s.currentPeriodEnd, at)))
      .orderBy(asc(s.currentPeriodEnd), asc(dialect.byteOrder(s.id)))
      .limit(limit);
  }

  async findForCustomer(customerId: string, id: string): Promise<Subscription | null> {
    const { subscriptions: s } = this.store.tables;
    return this.findOne(and(eq(s.id, id), eq(s.customerId, customerId))!);
  }

  async listByCustomer(customerId: string, limit: number): Promise<Subscription[]> {
    const { db, tables: { subscriptions: s }, dialect } = this.store;
    return db.select(subscriptionColumns(this.store.tables.subscriptions)).from(s).where(eq(s.customerId, customerId)).orderBy(desc(s.createdAt), desc(dialect.byteOrder(s.id))).limit(limit);
  }

  /** One statement: only a live subscription not yet in the wanted state, with no other change in flight (or one gone stale). */
  async claimBuyerChange(customerId: string, id: string, cancelAtPeriodEnd: boolean, at: number, staleBefore: number): Promise<Subscription | null> {
    const { db, tables: { subscriptions: s } } = this.store;
    const [row] = await db
      .update(s)
      .set({ changeClaimedAt: at })
      .where(and(
        eq(s.id, id),
        eq(s.customerId, customerId),
        ne(s.status, 'canceled'),
        eq(s.cancelAtPeriodEnd, !cancelAtPeriodEnd),
        or(isNull(s.changeClaimedAt), lt(s.changeClaimedAt, staleBefore)),
      ))
      .returning(subscriptionColumns(this.store.tables.subscriptions));
    return row ?? null;
  }

  /** Only the claim's holder writes: a claim taken over since (gone stale) changes nothing. */
  async finishBuyerChange(id: string, cancelAtPeriodEnd: boolean, claimedAt: number, at: number): Promise<Subscription | null> {
    const { transactions, tables: { subscriptions: s }, dialect } = this.store;
    // Through the writes that announce it: a resumption is subscription.resumed, once.
    const set = { cancelAtPeriodEnd, changeClaimedAt: null, updatedAt: dialect.greatest(sql`"updated_at"`, dialect.bound(at, 'bigint')) };
    return transactions.changeSubscription(eq(s.id, id), set, and(eq(s.changeClaimedAt, claimedAt), ne(s.status, 'canceled')));
  }

  async releaseBuyerChange(id: string, claimedAt: number): Promise<void> {
    const { db, tables: { subscriptions: s } } = this.store;
    await db.update(s).set({ changeClaimedAt: null }).where(and(eq(s.id, id), eq(s.changeClaimedAt, claimedAt)));
  }

  private findOne(where: SQL): Promise<Subscription | null> {
    return oneOrNull(this.store.db.select(subscriptionColumns(this.store.tables.subscriptions)).from(this.store.tables.subscriptions).where(where));
  }
}

/** A row as read or returned whole, without the buyer-change claim (the store's bookkeeping). */
export function withoutClaim<T extends { changeClaimedAt?: unknown }>({ changeClaimedAt: _claim, ...subscription }: T): Omit<T, 'changeClaimedAt'> {
  return subscription;
}

/** A subscription's columns bar the buyer-change claim, which is the store's bookkeeping, not the subscription's. */
export function subscriptionColumns(subscriptions: SqlStore['tables']['subscriptions']) {
  const { changeClaimedAt: _claim, ...columns } = getTableColumns(subscriptions);
  return columns;
}

/** A seller's subscriptions, newest first, walking (developer_id, created_at, id): one row more than the limit. */
export function subscriptionListQuery({ db, tables: { subscriptions: s, customers }, dialect }: SqlStore, developerId: string, query: SubscriptionListQuery) {
  const after = query.after;
  const id = dialect.byteOrder(s.id);
  const where = and(
    eq(s.developerId, developerId),
    after ? or(lt(s.createdAt, after.createdAt), and(eq(s.createdAt, after.createdAt), sql`${id} < ${after.id}`)) : undefined,
    query.productId === undefined ? undefined : eq(s.productId, query.productId),
    query.status === undefined ? undefined : eq(s.status, query.status),
  );
  return db
    .select({ subscription: subscriptionColumns(s), customerEmail: customers.email })
    .from(s)
    .innerJoin(customers, eq(customers.id, s.customerId))
    .where(where)
    .orderBy(desc(s.createdAt), desc(id))
    .limit(query.limit + 1);
}

/** Every expression reads the row as it was: `canceled` is final, the period end only grows, older news loses. */
function changeSet(dialect: SqlDialect, change: SubscriptionChange): Record<string, SQL> {
  const asOf = dialect.bound(change.asOf, 'bigint');
  const fresh = sql`${asOf} >= "updated_at"`;
  const set: Record<string, SQL> = { updatedAt: dialect.greatest(sql`"updated_at"`, asOf) };
  if (change.status === 'canceled') {
    set.status = sql`'canceled'`;
    set.canceledAt = sql`CASE WHEN "status" = 'canceled' THEN "canceled_at" ELSE ${asOf} END`;
  } else if (change.status) {
    set.status = sql`CASE WHEN "status" <> 'canceled' AND ${fresh} THEN ${dialect.bound(change.status, 'text')} ELSE "status" END`;
  }
  if (change.cancelAtPeriodEnd !== undefined) {
    set.cancelAtPeriodEnd = sql`CASE WHEN "status" <> 'canceled' AND ${fresh} THEN ${dialect.bound(change.cancelAtPeriodEnd, 'boolean')} ELSE "cancel_at_period_end" END`;
  }
  if (change.currentPeriodEnd !== undefined) set.currentPeriodEnd = dialect.greatest(sql`"current_period_end"`, dialect.bound(change.currentPeriodEnd, 'bigint'));
  return set;
}
