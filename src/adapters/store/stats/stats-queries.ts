import { and, type AnyColumn, asc, between, count, eq, gt, gte, isNotNull, lt, or, sql } from 'drizzle-orm';
import { DAY_MS, dayOf, type DailyStatsRow, type RecurringCount } from '../../../domain/stats.ts';
import type { FailingEndpoint, StatsRepository } from '../../../ports/stats-repository.ts';
import type { SqlStore } from '../sql-store.ts';

/**
 * The console's figures from the rollups (daily_stats, license_expiry_days, subscription_counts),
 * moved by the repositories with every change of licenses, machines, orders and subscriptions
 * (src/domain/stats-rollups.ts). Each read walks the days or products asked for; only today's expiring licenses are
 * counted from the licenses' own (seller, status, expiry) index, one day's range of it.
 */
export class DrizzleStatsRepository implements StatsRepository {
  // Every console overview runs these: prepared once (PostgreSQL keeps their plans; SQLite does not compile them again).
  private readonly dailyRows;
  private readonly activeCounts;
  private readonly recurringRows;

  constructor(private readonly store: SqlStore) {
    const { dailyStats: d, licenseExpiryDays: x, licenses: l, activations: a, subscriptionCounts: s, products: p } = store.tables;
    const { db } = store;
    const developer = sql.placeholder('developer');
    this.dailyRows = db
      .select({ day: d.day, currency: d.currency, newLicenses: d.newLicenses, orders: d.orders, revenue: d.revenue, refunded: d.refunded })
      .from(d)
      .where(and(eq(d.developerId, developer), between(d.day, sql.placeholder('from'), sql.placeholder('to'))))
      .prepare('stats_daily');
    // Filed by expiry day: every day after today is still active; today's are active until their millisecond.
    // One statement, three reads: the days after today, and today's licenses and machines from the (seller, status, expiry) index.
    const later = (column: AnyColumn) => db.select({ n: sql`coalesce(sum(${column}), 0)` }).from(x).where(and(eq(x.developerId, developer), gt(x.day, sql.placeholder('today'))));
    const endingToday = and(eq(l.developerId, developer), eq(l.status, 'active'), gt(l.expiresAt, sql.placeholder('now')), lt(l.expiresAt, sql.placeholder('tomorrow')));
    const licensesToday = db.select({ n: count() }).from(l).where(endingToday);
    const machinesToday = db.select({ n: count() }).from(l).innerJoin(a, eq(a.licenseId, l.id)).where(endingToday);
    this.activeCounts = db
      .select({
        licenses: sql<number>`(${later(x.licenses)}) + (${licensesToday})`.mapWith(Number),
        machines: sql<number>`(${later(x.machines)}) + (${machinesToday})`.mapWith(Number),
      })
      .from(sql`(SELECT 1) AS one`)
      .prepare('stats_active');
    this.recurringRows = db
      .select({ currency: p.currency, price: p.price, interval: s.interval, subscriptions: s.subscriptions })
      .from(s)
      .innerJoin(p, eq(p.id, s.productId))
      .where(and(eq(s.developerId, developer), gt(s.subscriptions, 0)))
      .prepare('stats_recurring');
  }

  async daily(developerId: string, fromDay: number, toDay: number): Promise<DailyStatsRow[]> {
    return this.dailyRows.execute({ developer: developerId, from: fromDay, to: toDay });
  }

  async active(developerId: string, now: number): Promise<{ licenses: number; machines: number }> {
    const today = dayOf(now);
    const [row] = await this.activeCounts.execute({ developer: developerId, today, now, tomorrow: (today + 1) * DAY_MS });
    return row!;
  }

  async recurring(developerId: string): Promise<RecurringCount[]> {
    return this.recurringRows.execute({ developer: developerId });
  }

  async failingEndpoints(developerId: string, disabledReason: string, failedLimit: number): Promise<FailingEndpoint[]> {
    const { webhookEndpoints: e, webhookDeliveries: d } = this.store.tables;
    const endpoints = await this.store.db
      .select({ id: e.id, url: e.url, enabled: e.enabled, disabledReason: e.disabledReason, failingSince: e.failingSince })
      .from(e)
      .where(and(eq(e.developerId, developerId), or(and(eq(e.enabled, true), isNotNull(e.failingSince)), and(eq(e.enabled, false), eq(e.disabledReason, disabledReason)))))
      .orderBy(asc(e.createdAt), asc(e.id));
    return Promise.all(
      endpoints.map(async (endpoint) => {
        // The endpoint's deliveries since it started failing ((endpoint, created) index), at most failedLimit of them.
        const since = endpoint.failingSince === null ? undefined : gte(d.createdAt, endpoint.failingSince);
        const failed = this.store.db.select({ one: sql`1` }).from(d).where(and(eq(d.endpointId, endpoint.id), since, eq(d.status, 'failed'))).limit(failedLimit).as('failed');
        const [row] = await this.store.db.select({ n: count().mapWith(Number) }).from(failed);
        return { ...endpoint, failedDeliveries: row!.n };
      }),
    );
  }
}
