/**
 * How each write moves the console's rollups (docs/console-api.md): what a license, a machine, an
 * order or a subscription adds to them, as signed deltas. A change is its new row's share in and
 * its old row's share out, merged, so an update that leaves the counted columns alone moves
 * nothing. Pure: the store applies the deltas in the transaction of the change itself.
 */
import type { StoredLicenseStatus } from './license.ts';
import type { BillingInterval } from './product.ts';
import { dayOf, PERPETUAL_DAY } from './stats.ts';
import type { SubscriptionStatus } from './subscription.ts';

/** A seller's UTC day in one currency ('' holds the licenses issued that day). */
export interface DailyDelta {
  table: 'dailyStats';
  key: { developerId: string; day: number; currency: string };
  add: { newLicenses: number; orders: number; revenue: number; refunded: number };
}

/** The active licenses (and their machines) of a seller ending on one UTC day; PERPETUAL_DAY for never. */
export interface ExpiryDelta {
  table: 'licenseExpiryDays';
  key: { developerId: string; day: number };
  add: { licenses: number; machines: number };
}

/** The live (not canceled) subscriptions of a seller's product at one interval. */
export interface SubscriptionCountDelta {
  table: 'subscriptionCounts';
  key: { developerId: string; productId: string; interval: BillingInterval };
  add: { subscriptions: number };
}

export type RollupDelta = DailyDelta | ExpiryDelta | SubscriptionCountDelta;

/** What of a license the rollups count, with the machines it holds. */
export interface LicenseFigures {
  developerId: string;
  issuedAt: number;
  storedStatus: StoredLicenseStatus;
  expiresAt: number | null;
  machines: number;
}

export interface OrderFigures {
  developerId: string;
  createdAt: number;
  currency: string;
  amount: number;
  amountRefunded: number;
}

export interface SubscriptionFigures {
  developerId: string;
  productId: string;
  interval: BillingInterval;
  status: SubscriptionStatus;
}

/** The expiry day a license is filed under. */
export const expiryDay = (expiresAt: number | null): number => (expiresAt === null ? PERPETUAL_DAY : dayOf(expiresAt));

function licenseShare(license: LicenseFigures, sign: number): RollupDelta[] {
  const { developerId } = license;
  const issued: DailyDelta = { table: 'dailyStats', key: { developerId, day: dayOf(license.issuedAt), currency: '' }, add: { newLicenses: sign, orders: 0, revenue: 0, refunded: 0 } };
  if (license.storedStatus !== 'active') return [issued];
  return [issued, { table: 'licenseExpiryDays', key: { developerId, day: expiryDay(license.expiresAt) }, add: { licenses: sign, machines: sign * license.machines } }];
}

function orderShare(order: OrderFigures, sign: number): RollupDelta[] {
  const key = { developerId: order.developerId, day: dayOf(order.createdAt), currency: order.currency };
  return [{ table: 'dailyStats', key, add: { newLicenses: 0, orders: sign, revenue: sign * order.amount, refunded: sign * order.amountRefunded } }];
}

function subscriptionShare(subscription: SubscriptionFigures, sign: number): RollupDelta[] {
  if (subscription.status === 'canceled') return [];
  const { developerId, productId, interval } = subscription;
  return [{ table: 'subscriptionCounts', key: { developerId, productId, interval }, add: { subscriptions: sign } }];
}

/** A license written (before null), changed, or deleted (after null). */
export const licenseRollups = (before: LicenseFigures | null, after: LicenseFigures | null): RollupDelta[] => change(before, after, licenseShare);

/** An order recorded, refunded or otherwise changed, or deleted. */
export const orderRollups = (before: OrderFigures | null, after: OrderFigures | null): RollupDelta[] => change(before, after, orderShare);

/** A subscription recorded, changed (its status: canceled is out), or deleted. */
export const subscriptionRollups = (before: SubscriptionFigures | null, after: SubscriptionFigures | null): RollupDelta[] => change(before, after, subscriptionShare);

/** `machines` bound to (positive) or removed from (negative) a license: counted while it is active. */
export function machineRollups(license: Omit<LicenseFigures, 'machines' | 'issuedAt'>, machines: number): RollupDelta[] {
  if (license.storedStatus !== 'active' || machines === 0) return [];
  return [{ table: 'licenseExpiryDays', key: { developerId: license.developerId, day: expiryDay(license.expiresAt) }, add: { licenses: 0, machines } }];
}

function change<T>(before: T | null, after: T | null, share: (row: T, sign: number) => RollupDelta[]): RollupDelta[] {
  return mergeRollups([...(after ? share(after, 1) : []), ...(before ? share(before, -1) : [])]);
}

/**
 * Deltas to one rollup row added up, and those that add nothing dropped: each row is written at
 * most once per change, in a stable order (by table, then key), so two changes take their rows' locks in the same order.
 */
export function mergeRollups(deltas: RollupDelta[]): RollupDelta[] {
  const merged = new Map<string, RollupDelta>();
  for (const delta of deltas) {
    const id = `${delta.table}\u0000${Object.values(delta.key).join('\u0000')}`;
    const held = merged.get(id);
    // Sums start at 0, so a share taken out (-1 × 0) reads 0, not -0.
    const sums = (held?.add ?? Object.fromEntries(Object.keys(delta.add).map((column) => [column, 0]))) as Record<string, number>;
    for (const [column, n] of Object.entries(delta.add)) sums[column] = sums[column]! + n;
    if (!held) merged.set(id, { ...delta, add: sums } as RollupDelta);
  }
  return [...merged]
    .filter(([, delta]) => Object.values(delta.add).some((n) => n !== 0))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, delta]) => delta);
}

/** Whether a change of a license moves any rollup: only then need its machines be counted. */
export const licenseMoves = (before: Omit<LicenseFigures, 'machines'>, after: Omit<LicenseFigures, 'machines'>): boolean =>
  licenseRollups({ ...before, machines: 0 }, { ...after, machines: 0 }).length > 0;
