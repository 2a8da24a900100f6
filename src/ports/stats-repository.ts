import type { DailyStatsRow, RecurringCount } from '../domain/stats.ts';

/** A webhook endpoint the console warns about: failing now, or disabled for failing. */
export interface FailingEndpoint {
  id: string;
  url: string;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: number | null;
  /** Deliveries that failed for good since it started failing, counted up to `failedLimit`. */
  failedDeliveries: number;
}

/**
 * The console's figures, read from rollups the store keeps with every change (docs/console-api.md):
 * each read costs the days or products it covers, never the seller's licenses.
 */
export interface StatsRepository {
  /** A seller's rollup rows of the UTC days [fromDay, toDay], in no particular order. */
  daily(developerId: string, fromDay: number, toDay: number): Promise<DailyStatsRow[]>;
  /** Licenses not revoked and not past their expiry at `now`, and the machines bound to them. */
  active(developerId: string, now: number): Promise<{ licenses: number; machines: number }>;
  /** Subscriptions not canceled, per product (its price and currency now) and interval. */
  recurring(developerId: string): Promise<RecurringCount[]>;
  /** The seller's endpoints enabled and failing now, or disabled for failing (`disabledReason`), oldest first; one the seller turned off is not among them. */
  failingEndpoints(developerId: string, disabledReason: string, failedLimit: number): Promise<FailingEndpoint[]>;
}
