import type { Database } from 'bun:sqlite';
import { eq } from 'drizzle-orm';
import { postgresSqlStore, sqliteSqlStore, type SqlStore } from '../../src/adapters/store/sql-store.ts';
import type { PostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import type { SqliteDb } from '../../src/adapters/sqlite/sqlite-store.ts';
import { DAY_MS, dayLabel } from '../../src/domain/stats.ts';
import type { Store } from '../../src/ports/deps.ts';

/** The store's tables through the shared query layer, whichever dialect it is. */
export function sqlOf(store: Store): SqlStore {
  const opened = opening(store);
  return 'sqlite' in opened ? sqliteSqlStore(opened.db) : postgresSqlStore(opened.db);
}

const opening = (store: Store) => store as Store & ({ sqlite: Database; db: SqliteDb } | PostgresStore);

/** Runs one SQL statement as it is written (a migration's), on whichever store. */
export async function runStatement(store: Store, statement: string): Promise<void> {
  const opened = opening(store);
  if ('sqlite' in opened) opened.sqlite.run(statement);
  else await opened.sql.unsafe(statement);
}

const add = (money: Map<string, number>, currency: string, amount: number) => money.set(currency, (money.get(currency) ?? 0) + amount);
const listed = (money: Map<string, number>) => [...money].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, amount]) => ({ currency, amount }));

/**
 * What GET /developers/stats should answer by day over [fromDay, toDay], computed the slow way:
 * every license, machine, order, subscription and product row of the seller read and counted.
 */
export async function statsByBruteForce(store: Store, developerId: string, fromDay: number, toDay: number, now: number) {
  const { db, tables: t } = sqlOf(store);
  const licenses = await db.select().from(t.licenses).where(eq(t.licenses.developerId, developerId));
  const orders = await db.select().from(t.orders).where(eq(t.orders.developerId, developerId));
  const machines = await db.select({ licenseId: t.activations.licenseId }).from(t.activations).innerJoin(t.licenses, eq(t.licenses.id, t.activations.licenseId)).where(eq(t.licenses.developerId, developerId));
  const subscriptions = await db.select().from(t.subscriptions).where(eq(t.subscriptions.developerId, developerId));
  const products = new Map((await db.select().from(t.products).where(eq(t.products.developerId, developerId))).map((p) => [p.id, p]));

  const inRange = (ms: number) => Math.floor(ms / DAY_MS) >= fromDay && Math.floor(ms / DAY_MS) <= toDay;
  const currencies = [...new Set(orders.filter((o) => inRange(o.createdAt)).map((o) => o.currency))];
  const series = [];
  const revenue = new Map<string, number>(currencies.map((c) => [c, 0]));
  for (let day = fromDay; day <= toDay; day++) {
    const onDay = (ms: number) => Math.floor(ms / DAY_MS) === day;
    const dayRevenue = new Map<string, number>(currencies.map((c) => [c, 0]));
    const dayOrders = orders.filter((o) => onDay(o.createdAt));
    for (const o of dayOrders) add(dayRevenue, o.currency, o.amount - o.amountRefunded);
    for (const o of dayOrders) add(revenue, o.currency, o.amount - o.amountRefunded);
    series.push({ period: dayLabel(day), newLicenses: licenses.filter((l) => onDay(l.issuedAt)).length, orders: dayOrders.length, revenue: listed(dayRevenue) });
  }
  const active = new Set(licenses.filter((l) => l.status === 'active' && (l.expiresAt === null || l.expiresAt > now)).map((l) => l.id));
  const twelfths = new Map<string, number>();
  for (const s of subscriptions.filter((x) => x.status !== 'canceled')) {
    const product = products.get(s.productId)!;
    add(twelfths, product.currency, s.interval === 'year' ? product.price : product.price * 12);
  }
  return {
    series,
    totals: {
      activeLicenses: active.size,
      activeMachines: machines.filter((m) => active.has(m.licenseId)).length,
      mrr: listed(twelfths).map(({ currency, amount }) => ({ currency, amount: Math.round(amount / 12) })),
      newLicenses: licenses.filter((l) => inRange(l.issuedAt)).length,
      revenue: listed(revenue),
    },
  };
}
