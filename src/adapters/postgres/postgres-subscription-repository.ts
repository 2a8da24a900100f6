import { and, asc, desc, eq, lte, ne, or, lt, sql, type SQL } from 'drizzle-orm';
import type { Subscription, SubscriptionChange } from '../../domain/subscription.ts';
import type { SubscriptionListQuery, SubscriptionPage, SubscriptionRepository } from '../../ports/subscription-repository.ts';
import { customers, subscriptions as s } from './schema.ts';
import type { PostgresDb } from './postgres-store.ts';

export class PostgresSubscriptionRepository implements SubscriptionRepository {
  constructor(private readonly db: PostgresDb) {}

  async create(subscription: Subscription): Promise<Subscription> {
    // The processor's id decides: of concurrent records one inserts, every caller reads that one.
    // A second subscription for one license is a unique violation, thrown as it is.
    await this.db.insert(s).values(subscription).onConflictDoNothing({ target: s.processorSubscriptionId });
    const stored = await this.findByProcessorId(subscription.processorSubscriptionId);
    if (!stored) throw new Error('subscriptions: the row just written is missing');
    return stored;
  }

  async findByProcessorId(processorSubscriptionId: string): Promise<Subscription | null> {
    const [row] = await this.db.select().from(s).where(eq(s.processorSubscriptionId, processorSubscriptionId)).limit(1);
    return row ?? null;
  }

  async findByLicense(licenseId: string): Promise<Subscription | null> {
    const [row] = await this.db.select().from(s).where(eq(s.licenseId, licenseId)).limit(1);
    return row ?? null;
  }

  async findById(developerId: string, id: string): Promise<Subscription | null> {
    const [row] = await this.db.select().from(s).where(and(eq(s.id, id), eq(s.developerId, developerId))).limit(1);
    return row ?? null;
  }

  /** One statement on one row (its row lock orders concurrent deliveries): see applySubscriptionChange. */
  async update(processorSubscriptionId: string, change: SubscriptionChange): Promise<Subscription | null> {
    const [row] = await this.db.update(s).set(changeSet(change)).where(eq(s.processorSubscriptionId, processorSubscriptionId)).returning();
    return row ?? null;
  }

  /** Only a live subscription changes (its row lock orders it with the processor's news); the answer is read after. */
  async markCancelAtPeriodEnd(developerId: string, id: string, at: number): Promise<Subscription | null> {
    await this.db
      .update(s)
      .set({ cancelAtPeriodEnd: true, updatedAt: sql`GREATEST("updated_at", ${at}::bigint)` })
      .where(and(eq(s.id, id), eq(s.developerId, developerId), ne(s.status, 'canceled')));
    return this.findById(developerId, id);
  }

  async listByDeveloper(developerId: string, query: SubscriptionListQuery): Promise<SubscriptionPage> {
    const after = query.after;
    const where = and(
      eq(s.developerId, developerId),
      after ? or(lt(s.createdAt, after.createdAt), and(eq(s.createdAt, after.createdAt), sql`${s.id} COLLATE "C" < ${after.id}`)) : undefined,
      query.productId === undefined ? undefined : eq(s.productId, query.productId),
      query.status === undefined ? undefined : eq(s.status, query.status),
    );
    const rows = await this.db
      .select({ subscription: s, customerEmail: customers.email })
      .from(s)
      .innerJoin(customers, eq(customers.id, s.customerId))
      .where(where)
      .orderBy(desc(s.createdAt), sql`${s.id} COLLATE "C" DESC`)
      .limit(query.limit + 1);
    const data = rows.slice(0, query.limit).map((row) => ({ ...row.subscription, customerEmail: row.customerEmail }));
    return { data, hasMore: rows.length > query.limit };
  }

  async listDueSandbox(developerId: string, at: number, limit: number): Promise<Subscription[]> {
    return this.db
      .select()
      .from(s)
      .where(and(eq(s.developerId, developerId), eq(s.processor, 'sandbox'), ne(s.status, 'canceled'), lte(s.currentPeriodEnd, at)))
      .orderBy(asc(s.currentPeriodEnd), sql`${s.id} COLLATE "C"`)
      .limit(limit);
  }
}

/** Every expression reads the row as it was: `canceled` is final, the period end only grows, older news loses. */
function changeSet(change: SubscriptionChange): Record<string, SQL> {
  const asOf = sql`${change.asOf}::bigint`;
  const fresh = sql`${asOf} >= "updated_at"`;
  const set: Record<string, SQL> = { updatedAt: sql`GREATEST("updated_at", ${asOf})` };
  if (change.status === 'canceled') {
    set.status = sql`'canceled'`;
    set.canceledAt = sql`CASE WHEN "status" = 'canceled' THEN "canceled_at" ELSE ${asOf} END`;
  } else if (change.status) {
    set.status = sql`CASE WHEN "status" <> 'canceled' AND ${fresh} THEN ${change.status}::text ELSE "status" END`;
  }
  if (change.cancelAtPeriodEnd !== undefined) {
    set.cancelAtPeriodEnd = sql`CASE WHEN "status" <> 'canceled' AND ${fresh} THEN ${change.cancelAtPeriodEnd}::boolean ELSE "cancel_at_period_end" END`;
  }
  if (change.currentPeriodEnd !== undefined) set.currentPeriodEnd = sql`GREATEST("current_period_end", ${change.currentPeriodEnd}::bigint)`;
  return set;
}
