/**
 * The seller console's figures (docs/console-api.md): a date range cut into periods, each with the
 * licenses issued, the orders made and their revenue per currency, from daily rollups; and monthly
 * recurring revenue from the subscriptions' counts. Pure: the store hands the rows, this sums them.
 */
import { InvalidRequestError } from './errors.ts';
import type { BillingInterval } from './product.ts';

export const STATS_INTERVALS = ['day', 'week', 'month'] as const;
export type StatsInterval = (typeof STATS_INTERVALS)[number];

export const DAY_MS = 86_400_000;
/** The expiry day the rollups file a perpetual license under (never past). */
export const PERPETUAL_DAY = 2_147_483_647;

export const STATS_LIMITS = {
  /** Days in a range by day (a year, leap day included). */
  dayRangeMax: 366,
  /** Days in a range by week or month: five years. */
  rangeMax: 5 * 365 + 2,
  /** A range left out: the last 30 days, today included. */
  defaultDays: 30,
  recentOrders: 10,
  /** Failed deliveries counted per failing endpoint. */
  failedDeliveriesMax: 1000,
} as const;

/** The UTC day (days since 1970-01-01) a Unix millisecond falls on. */
export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS);

/** `YYYY-MM-DD` of a UTC day. */
export const dayLabel = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date `YYYY-MM-DD` as its UTC day, or null when it is not one (2026-02-30 is not). */
export function parseDay(text: string): number | null {
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, date);
  const back = new Date(ms);
  if (year < 1970 || back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== date) return null;
  return dayOf(ms);
}

export interface StatsRange {
  fromDay: number;
  toDay: number;
  interval: StatsInterval;
}

/**
 * The range asked for, both ends included: `to` defaults to today, `from` to 29 days before `to`.
 * Not a date, from after to, or longer than the interval allows: 400 naming the parameter.
 */
export function statsRange(input: { from?: string; to?: string; interval?: StatsInterval }, today: number): StatsRange {
  const interval = input.interval ?? 'day';
  const day = (name: 'from' | 'to', text: string | undefined) => {
    if (text === undefined) return undefined;
    const parsed = parseDay(text);
    if (parsed === null) throw new InvalidRequestError(`${name} must be a calendar date YYYY-MM-DD (UTC), 1970 or later.`, name, 'query');
    return parsed;
  };
  const toDay = day('to', input.to) ?? today;
  const fromDay = day('from', input.from) ?? toDay - (STATS_LIMITS.defaultDays - 1);
  if (fromDay > toDay) throw new InvalidRequestError('from must be on or before to.', 'from', 'query');
  const max = interval === 'day' ? STATS_LIMITS.dayRangeMax : STATS_LIMITS.rangeMax;
  if (toDay - fromDay + 1 > max) {
    throw new InvalidRequestError(`The range is at most ${max} days with interval=${interval} (from and to included).`, 'from', 'query');
  }
  return { fromDay, toDay, interval };
}

/** The first day of the period a day falls in: itself, its ISO week's Monday, or its month's first. */
export function periodStart(day: number, interval: StatsInterval): number {
  if (interval === 'day') return day;
  if (interval === 'week') return day - ((day + 3) % 7); // 1970-01-01 was a Thursday
  const date = new Date(day * DAY_MS);
  return dayOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
}

function nextPeriod(start: number, interval: StatsInterval): number {
  if (interval === 'day') return start + 1;
  if (interval === 'week') return start + 7;
  const date = new Date(start * DAY_MS);
  return dayOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
}

/** One rollup row: a seller's day in one currency ('' carries the licenses). */
export interface DailyStatsRow {
  day: number;
  currency: string;
  newLicenses: number;
  orders: number;
  /** What the day's orders paid, and what of it went back since. */
  revenue: number;
  refunded: number;
}

export interface Money {
  currency: string;
  amount: number;
}

export interface StatsPeriod {
  period: string;
  newLicenses: number;
  orders: number;
  /** Net (paid less refunded) per currency, every currency of the range listed (0 when none). */
  revenue: Money[];
}

/**
 * Every period of the range, oldest first, empty ones included (a chart's x axis); the first and
 * last may be partial (only the range's days count), and each is named by its first calendar day.
 */
export function statsSeries(rows: DailyStatsRow[], range: StatsRange): { series: StatsPeriod[]; newLicenses: number; revenue: Money[] } {
  const currencies = [...new Set(rows.filter((r) => r.currency !== '' && r.orders !== 0).map((r) => r.currency))].sort();
  const starts: number[] = [];
  for (let start = periodStart(range.fromDay, range.interval); start <= range.toDay; start = nextPeriod(start, range.interval)) starts.push(start);
  // Each day of the range to its period's index: arrays, not maps (a year by day is 365 periods).
  const periodOfDay = new Int32Array(range.toDay - range.fromDay + 1);
  for (let p = 0, day = range.fromDay; day <= range.toDay; day++) {
    while (p + 1 < starts.length && starts[p + 1]! <= day) p++;
    periodOfDay[day - range.fromDay] = p;
  }
  const licenses = new Float64Array(starts.length);
  const orders = new Float64Array(starts.length);
  const net = currencies.map(() => new Float64Array(starts.length));
  const column = new Map(currencies.map((c, i) => [c, i]));
  for (const row of rows) {
    if (row.day < range.fromDay || row.day > range.toDay) continue;
    const p = periodOfDay[row.day - range.fromDay]!;
    licenses[p]! += row.newLicenses;
    if (row.currency === '' || row.orders === 0) continue;
    orders[p]! += row.orders;
    net[column.get(row.currency)!]![p]! += row.revenue - row.refunded;
  }
  const series = starts.map((start, p) => ({
    period: dayLabel(start),
    newLicenses: licenses[p]!,
    orders: orders[p]!,
    revenue: currencies.map((currency, c) => ({ currency, amount: net[c]![p]! })),
  }));
  const sum = (values: Float64Array) => values.reduce((a, b) => a + b, 0);
  return { series, newLicenses: sum(licenses), revenue: currencies.map((currency, c) => ({ currency, amount: sum(net[c]!) })) };
}

/** Subscriptions not canceled, counted per product (at its current price) and interval. */
export interface RecurringCount {
  currency: string;
  price: number;
  interval: BillingInterval;
  subscriptions: number;
}

/** Monthly recurring revenue per currency: a yearly subscription counts a twelfth of its price, rounded per currency. */
export function monthlyRecurring(counts: RecurringCount[]): Money[] {
  const twelfths = new Map<string, number>();
  for (const c of counts) {
    if (c.subscriptions <= 0) continue;
    const perMonth = c.interval === 'year' ? c.price : c.price * 12;
    twelfths.set(c.currency, (twelfths.get(c.currency) ?? 0) + perMonth * c.subscriptions);
  }
  return [...twelfths].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, amount]) => ({ currency, amount: Math.round(amount / 12) }));
}
