import { ENDPOINT_DISABLED_FAILING } from '../../domain/webhook-endpoint.ts';
import { dayLabel, dayOf, monthlyRecurring, STATS_LIMITS, statsRange, statsSeries, type StatsInterval } from '../../domain/stats.ts';
import type { Deps } from '../../ports/deps.ts';
import { listOrders } from '../orders/list-orders.ts';

export interface StatsInput {
  from?: string;
  to?: string;
  interval?: StatsInterval;
}

/**
 * GET /developers/stats: the console's overview (docs/console-api.md). The series and totals come
 * from daily rollups, the counts now from rollups by expiry day and by product; the recent orders
 * are the order list's first page. Nothing here reads the seller's licenses one by one.
 */
export async function sellerStats(deps: Pick<Deps, 'clock' | 'stats' | 'orders'>, developerId: string, input: StatsInput) {
  const now = deps.clock.now();
  const range = statsRange(input, dayOf(now));
  const [rows, active, recurring, failing, recent] = await Promise.all([
    deps.stats.daily(developerId, range.fromDay, range.toDay),
    deps.stats.active(developerId, now),
    deps.stats.recurring(developerId),
    deps.stats.failingEndpoints(developerId, ENDPOINT_DISABLED_FAILING, STATS_LIMITS.failedDeliveriesMax),
    listOrders(deps, developerId, { limit: STATS_LIMITS.recentOrders }),
  ]);
  const { series, newLicenses, revenue } = statsSeries(rows, range);
  return {
    from: dayLabel(range.fromDay),
    to: dayLabel(range.toDay),
    interval: range.interval,
    series,
    totals: { activeLicenses: active.licenses, activeMachines: active.machines, mrr: monthlyRecurring(recurring), newLicenses, revenue },
    failingWebhookEndpoints: failing,
    recentOrders: recent.data,
  };
}
