import { applySubscriptionChange, type Subscription, type SubscriptionChange } from '../../domain/subscription.ts';
import type { SubscriptionListQuery, SubscriptionPage, SubscriptionRepository } from '../../ports/subscription-repository.ts';
import type { MemoryTables } from './memory-tables.ts';

/** Newest first: createdAt, then id, both descending (as the SQL stores order them). */
const newestFirst = (a: Subscription, b: Subscription) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export class MemorySubscriptionRepository implements SubscriptionRepository {
  /** By processor subscription id. No await between a check and its write: one caller wins. */
  private readonly rows = new Map<string, Subscription>();

  /** The store's tables: a seller's list names each subscription's customer by e-mail, as the SQL join does. */
  constructor(private readonly tables: MemoryTables) {}

  async create(subscription: Subscription): Promise<Subscription> {
    const existing = this.rows.get(subscription.processorSubscriptionId);
    if (existing) return { ...existing };
    if ([...this.rows.values()].some((s) => s.licenseId === subscription.licenseId || s.id === subscription.id)) {
      throw new Error('subscriptions: license_id or id already used by another subscription');
    }
    this.rows.set(subscription.processorSubscriptionId, { ...subscription });
    return { ...subscription };
  }

  async findByProcessorId(processorSubscriptionId: string): Promise<Subscription | null> {
    const row = this.rows.get(processorSubscriptionId);
    return row ? { ...row } : null;
  }

  async findByLicense(licenseId: string): Promise<Subscription | null> {
    const row = [...this.rows.values()].find((s) => s.licenseId === licenseId);
    return row ? { ...row } : null;
  }

  async findById(developerId: string, id: string): Promise<Subscription | null> {
    const row = [...this.rows.values()].find((s) => s.id === id && s.developerId === developerId);
    return row ? { ...row } : null;
  }

  async update(processorSubscriptionId: string, change: SubscriptionChange): Promise<Subscription | null> {
    const row = this.rows.get(processorSubscriptionId);
    if (!row) return null;
    const next = applySubscriptionChange(row, change);
    this.rows.set(processorSubscriptionId, next);
    return { ...next };
  }

  async markCancelAtPeriodEnd(developerId: string, id: string, at: number): Promise<Subscription | null> {
    const row = [...this.rows.values()].find((s) => s.id === id && s.developerId === developerId);
    if (!row) return null;
    if (row.status === 'canceled') return { ...row };
    const next = { ...row, cancelAtPeriodEnd: true, updatedAt: Math.max(row.updatedAt, at) };
    this.rows.set(row.processorSubscriptionId, next);
    return { ...next };
  }

  async listByDeveloper(developerId: string, query: SubscriptionListQuery): Promise<SubscriptionPage> {
    const after = query.after;
    const mine = [...this.rows.values()]
      .filter((s) => s.developerId === developerId)
      .filter((s) => query.productId === undefined || s.productId === query.productId)
      .filter((s) => query.status === undefined || s.status === query.status)
      .filter((s) => !after || s.createdAt < after.createdAt || (s.createdAt === after.createdAt && s.id < after.id))
      .sort(newestFirst);
    const data = mine.slice(0, query.limit).map((s) => ({ ...s, customerEmail: this.tables.customers.get(s.customerId)?.email ?? '' }));
    return { data, hasMore: mine.length > query.limit };
  }

  async listDueSandbox(developerId: string, at: number, limit: number): Promise<Subscription[]> {
    return [...this.rows.values()]
      .filter((s) => s.developerId === developerId && s.processor === 'sandbox' && s.status !== 'canceled' && s.currentPeriodEnd <= at)
      .sort((a, b) => a.currentPeriodEnd - b.currentPeriodEnd)
      .slice(0, limit)
      .map((s) => ({ ...s }));
  }
}
