import { t } from 'elysia';
import { sellerStats } from '../../../app/stats/seller-stats.ts';
import { STATS_INTERVALS, STATS_LIMITS } from '../../../domain/stats.ts';
import { ENDPOINT_DISABLED_FAILING } from '../../../domain/webhook-endpoint.ts';
import type { Deps } from '../../../ports/deps.ts';
import { withSecretKey } from '../auth.ts';
import { EXAMPLE } from '../examples.ts';
import { Input, Int, MillisOrNull, sellerRead } from '../schemas.ts';
import { choiceError, literalUnion } from '../vocabulary.ts';
import { Order, orderExample } from './orders.ts';

const DateParam = (name: 'from' | 'to', description: string, example: string) =>
  t.Optional(t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description, examples: [example], 'x-error': `${name} must be a calendar date YYYY-MM-DD (UTC), 1970 or later.` }));

const StatsQuery = Input({
  from: DateParam('from', `First day of the range (UTC), included. Default: ${STATS_LIMITS.defaultDays - 1} days before to.`, '2026-01-01'),
  to: DateParam('to', 'Last day of the range (UTC), included. Default: today.', '2026-01-30'),
  interval: t.Optional(literalUnion(STATS_INTERVALS, {
    description: `How the series is cut: day (default; at most ${STATS_LIMITS.dayRangeMax} days), week (ISO weeks, from Monday) or month (at most ${STATS_LIMITS.rangeMax} days for both).`,
    'x-error': choiceError('interval', STATS_INTERVALS),
  })),
});

const Money = t.Object({ currency: t.String({ description: 'ISO 4217, lower case.' }), amount: Int({ description: 'In the currency’s minor unit.' }) });

const Period = t.Object({
  period: t.String({ description: 'The period’s first calendar day, YYYY-MM-DD; the first and last period count only the range’s days.' }),
  newLicenses: Int({ description: 'Licenses issued: sold, granted and trials.' }),
  orders: Int({ description: 'Orders made (checkouts, terminal purchases, renewals).' }),
  revenue: t.Array(Money, { description: 'Net per currency: what the period’s orders paid less what of it was refunded since. Every currency of the range is listed, 0 when nothing came in.' }),
});

const FailingEndpoint = t.Object({
  id: t.String(),
  url: t.String(),
  enabled: t.Boolean({ description: 'false once the service disabled it for failing.' }),
  disabledReason: t.Union([t.String(), t.Null()], { description: `“${ENDPOINT_DISABLED_FAILING}” when the service disabled it; null while enabled.` }),
  failingSince: MillisOrNull('Since when every delivery to it failed.'),
  failedDeliveries: Int({ description: `Deliveries that failed for good since it started failing (all kept ones when failingSince is null), counted up to ${STATS_LIMITS.failedDeliveriesMax}.` }),
});

export const Stats = t.Object({
  from: t.String({ description: 'The range’s first day, YYYY-MM-DD.' }),
  to: t.String({ description: 'The range’s last day, YYYY-MM-DD (included).' }),
  interval: literalUnion(STATS_INTERVALS),
  series: t.Array(Period, { description: 'Every period of the range, oldest first, empty ones included.' }),
  totals: t.Object({
    activeLicenses: Int({ description: 'Now: licenses neither revoked nor past their expiry.' }),
    activeMachines: Int({ description: 'Now: machines bound to those licenses.' }),
    mrr: t.Array(Money, { description: 'Monthly recurring revenue now: every subscription not canceled at its product’s current price, a yearly one at a twelfth, per currency.' }),
    newLicenses: Int({ description: 'Licenses issued in the range.' }),
    revenue: t.Array(Money, { description: 'Net revenue of the range per currency (orders made in it, less what of them was refunded).' }),
  }),
  failingWebhookEndpoints: t.Array(FailingEndpoint, { description: 'Endpoints failing now or disabled for failing, oldest first (at most 20: the endpoint limit).' }),
  recentOrders: t.Array(Order, { description: `The ${STATS_LIMITS.recentOrders} newest orders, as GET /developers/orders lists them.` }),
}, {
  examples: [{
    from: '2026-01-01', to: '2026-01-02', interval: 'day',
    series: [
      { period: '2026-01-01', newLicenses: 3, orders: 2, revenue: [{ currency: 'usd', amount: 9800 }] },
      { period: '2026-01-02', newLicenses: 1, orders: 0, revenue: [{ currency: 'usd', amount: 0 }] },
    ],
    totals: { activeLicenses: 1250, activeMachines: 1710, mrr: [{ currency: 'usd', amount: 41_300 }], newLicenses: 4, revenue: [{ currency: 'usd', amount: 9800 }] },
    failingWebhookEndpoints: [{ id: EXAMPLE.webhookEndpointId, url: 'https://hooks.example.com/licensing', enabled: true, disabledReason: null, failingSince: EXAMPLE.time, failedDeliveries: 12 }],
    recentOrders: [orderExample],
  }],
});

/** GET /developers/stats: the seller console's overview, from rollups (docs/console-api.md). */
export function statsRoutes(deps: Deps) {
  return withSecretKey(deps).get('/developers/stats', ({ caller, query }) => sellerStats(deps, caller.developerId, query), sellerRead(StatsQuery, Stats, {
    tags: ['Developers'],
    summary: 'Your figures: licenses, orders and revenue over time, and now',
    description:
      'Licenses issued, orders and net revenue per currency for every day, ISO week or month of [from, to] (UTC days, both included), with their totals; ' +
      'active licenses and machines, monthly recurring revenue, failing webhook endpoints and the 10 newest orders as of now. ' +
      'Answered from rollups the store keeps with every change (per seller and day, per expiry day, per product), never by counting licenses, so it costs the same at a million licenses. ' +
      `Not a date, from after to, or a range longer than ${STATS_LIMITS.dayRangeMax} days by day (${STATS_LIMITS.rangeMax} by week or month): 400 invalid_request naming the parameter.`,
  }));
}
