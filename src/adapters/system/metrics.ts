import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { MailOutcome, Metrics } from '../../ports/metrics.ts';
import { mailCounters, mailGauges } from './mail-metrics.ts';

/** Upper bounds, in seconds, of the request latency histogram's buckets. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

interface Cell {
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * Requests by method, route pattern and status, with their latency: kept in nested maps of plain
 * numbers (no label string is built per request, unlike prom-client's own histogram), turned into
 * Prometheus samples only when scraped.
 */
class RequestHistogram {
  readonly name = 'http_request_duration_seconds';
  readonly help = 'Requests served, by method, route pattern and status, and how long they took.';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly cells = new Map<string, Map<string, Map<number, Cell>>>();

  observe(method: string, route: string, status: number, seconds: number): void {
    const m = METHODS.has(method) ? method : 'OTHER';
    let byRoute = this.cells.get(m);
    if (!byRoute) this.cells.set(m, (byRoute = new Map()));
    let byStatus = byRoute.get(route);
    if (!byStatus) byRoute.set(route, (byStatus = new Map()));
    let cell = byStatus.get(status);
    if (!cell) byStatus.set(status, (cell = { buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 }));
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
    if (i < LATENCY_BUCKETS.length) cell.buckets[i]!++;
    cell.sum += seconds;
    cell.count++;
  }

  get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const [method, byRoute] of this.cells) {
      for (const [route, byStatus] of byRoute) {
        for (const [status, cell] of byStatus) {
          const labels = { method, route, status };
          let cumulative = 0;
          LATENCY_BUCKETS.forEach((le, i) => {
            cumulative += cell.buckets[i]!;
            values.push({ labels: { ...labels, le }, value: cumulative, metricName: `${this.name}_bucket` });
          });
          values.push({ labels: { ...labels, le: '+Inf' }, value: cell.count, metricName: `${this.name}_bucket` });
          values.push({ labels, value: cell.sum, metricName: `${this.name}_sum` });
          values.push({ labels, value: cell.count, metricName: `${this.name}_count` });
        }
      }
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.cells.clear();
  }
}

/** A counter by one label whose increments are a plain property bump; samples are built at scrape time. */
function tally(registry: Registry, name: string, help: string, label: string) {
  const counts: Record<string, number> = Object.create(null);
  new Counter({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      this.reset();
      for (const key in counts) this.inc({ [label]: key }, counts[key]!);
    },
  });
  return (value: string) => {
    counts[value] = (counts[value] ?? 0) + 1;
  };
}

/**
 * An unlabelled gauge read at scrape time, absent while `read` answers null. Not a prom-client Gauge:
 * an unlabelled one always shows a value, and a made-up 0 would mislead.
 */
function optionalGauge(registry: Registry, name: string, help: string, aggregator: 'sum' | 'min', read: () => number | null): void {
  registry.registerMetric({
    name,
    help,
    type: 'gauge',
    aggregator,
    get() {
      const value = read();
      return { name, help, type: 'gauge', values: value === null ? [] : [{ labels: {}, value }], aggregator };
    },
    reset() {},
  } as never);
}

/** What only the store or another part knows, read when the page is scraped. */
export interface ScrapeSources {
  /** Outgoing webhook deliveries by status (pending, failed…). */
  outboxDepths?: () => Promise<Record<string, number>>;
  /** The PostgreSQL pool gate: slots in use and statements waiting for one. */
  pool?: () => { inUse: number; waiting: number };
  /** True while the shared rate-limit counters do not answer and requests go through uncounted. */
  rateLimitsFailingOpen?: () => boolean;
  /** The mail outbox's unsent mails (not given up) and the oldest one's creation time, from the store. */
  mailBacklog?: () => Promise<{ unsent: number; oldestCreatedAt: number | null }>;
  /** True while this process's mail sender holds the relay for down. */
  mailRelayDown?: () => boolean;
}

/**
 * The service's metrics, in Prometheus' text format (prom-client). Everything counted on a request's
 * path is a property increment; the rest is read at scrape time through `sources`.
 */
export class ServiceMetrics implements Metrics {
  readonly registry = new Registry();
  private readonly requests = new RequestHistogram();
  readonly validation: (verdict: string) => void;
  readonly codeSent: (channel: 'sms' | 'email') => void;
  /** Outcome of one webhook attempt: succeeded, retrying, failed (for good). */
  readonly webhookDelivery: (outcome: 'succeeded' | 'retrying' | 'failed') => void;
  /** An endpoint disabled after failing for too long. */
  readonly webhookEndpointDisabled: (reason: string) => void;
  /** A request refused by a rate limit, by the kind of limit (the first part of its key). */
  readonly rateLimitRefused: (kind: string) => void;
  /** One outbox mail's attempt, by outcome (ports/metrics.ts). */
  readonly mail: (outcome: MailOutcome) => void;
  /** A run of the retention sweep: ok or failed. */
  readonly sweepRun: (outcome: 'ok' | 'failed') => void;
  private lastBackupAt: number | null = null;
  private sources: ScrapeSources = {};

  constructor() {
    this.registry.registerMetric(this.requests as never);
    this.validation = tally(this.registry, 'license_validations_total', 'License validations answered, by verdict (valid or the reason).', 'verdict');
    this.codeSent = tally(this.registry, 'codes_sent_total', 'Sign-in and confirmation codes sent, by channel.', 'channel');
    this.webhookDelivery = tally(this.registry, 'webhook_delivery_attempts_total', 'Outgoing webhook attempts, by outcome: succeeded, retrying, failed (for good).', 'outcome');
    this.webhookEndpointDisabled = tally(this.registry, 'webhook_endpoints_disabled_total', 'Webhook endpoints disabled by the service, by reason.', 'reason');
    this.rateLimitRefused = tally(this.registry, 'rate_limit_refusals_total', 'Requests refused by a rate limit, by kind of limit.', 'limit');
    this.mail = mailCounters(this.registry);
    this.sweepRun = tally(this.registry, 'retention_sweep_runs_total', 'Runs of the retention sweep, by outcome.', 'outcome');
    const sources = () => this.sources;
    new Gauge({
      name: 'webhook_outbox_deliveries',
      help: 'Outgoing webhook deliveries in the store, by status (read at scrape time).',
      labelNames: ['status'],
      registers: [this.registry],
      async collect() {
        const read = sources().outboxDepths;
        if (!read) return;
        this.reset();
        for (const [status, n] of Object.entries(await read())) this.set({ status }, n);
      },
    });
    // Only where there is a pool to show: PostgreSQL's gate (SQLite's one connection has no line to wait in).
    const pool = () => sources().pool?.() ?? null;
    optionalGauge(this.registry, 'db_pool_in_use', 'PostgreSQL: statements and transactions holding one of the pool gate\'s slots now (absent with SQLite).', 'sum', () => pool()?.inUse ?? null);
    optionalGauge(this.registry, 'db_pool_waiting', 'PostgreSQL: statements and transactions waiting in line for a slot of the pool gate now (absent with SQLite).', 'sum', () => pool()?.waiting ?? null);
    new Gauge({
      name: 'rate_limits_failing_open',
      help: '1 while the shared rate-limit counters do not answer and requests pass uncounted, else 0.',
      registers: [this.registry],
      collect() {
        this.set(sources().rateLimitsFailingOpen?.() ? 1 : 0);
      },
    });
    mailGauges(this.registry, sources);
    // 0 would read as a fresh backup: absent until one is recorded.
    const backupHelp = 'Seconds since the last successful backup this process recorded (absent before the first).';
    optionalGauge(this.registry, 'backup_age_seconds', backupHelp, 'min', () => (this.lastBackupAt === null ? null : Math.max(0, (Date.now() - this.lastBackupAt) / 1000)));
    collectDefaultMetrics({ register: this.registry });
  }

  /** Called by whatever takes backups, once one has completed (at: epoch ms, default now). */
  backupCompleted(at: number = Date.now()): void {
    this.lastBackupAt = at;
  }

  /** Where the scrape-time gauges read from (set once the store and limiter are open). */
  readFrom(sources: ScrapeSources): void {
    this.sources = { ...this.sources, ...sources };
  }

  request(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe(method, route, status, seconds);
  }

  contentType(): string {
    return this.registry.contentType;
  }

  async text(): Promise<string> {
    return this.registry.metrics();
  }
}

/** For tests and tools that count nothing. */
export const noMetrics: Metrics = { validation() {}, codeSent() {} };
