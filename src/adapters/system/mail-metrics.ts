import { Counter, Gauge, type Registry } from 'prom-client';
import type { MailOutcome } from '../../ports/metrics.ts';
import type { ScrapeSources } from './metrics.ts';

const FAILURES: Exclude<MailOutcome, 'sent'>[] = ['retrying', 'relay_down', 'given_up'];

/**
 * This process's mail attempts: `mail_sent_total`, and `mail_send_failures_total` by outcome
 * (every outcome shown from the start, at 0, so an alert's rate() has a series to work on).
 */
export function mailCounters(registry: Registry): (outcome: MailOutcome) => void {
  const counts: Record<MailOutcome, number> = { sent: 0, retrying: 0, relay_down: 0, given_up: 0 };
  new Counter({
    name: 'mail_sent_total',
    help: 'Outbox mails this process handed to the relay.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(counts.sent);
    },
  });
  new Counter({
    name: 'mail_send_failures_total',
    help: 'Outbox mail attempts that failed, by outcome: retrying (on the mail\'s own schedule), relay_down (given back uncounted while the relay is down), given_up (its last attempt).',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const outcome of FAILURES) this.inc({ outcome }, counts[outcome]);
    },
  });
  return (outcome) => {
    counts[outcome]++;
  };
}

/**
 * The outbox as the store holds it (so every instance shows the same): unsent mails and the oldest
 * one's age, read at scrape time from the claim's index; and whether this process holds the relay for down.
 */
export function mailGauges(registry: Registry, sources: () => ScrapeSources): void {
  const backlog = backlogReader(() => sources().mailBacklog);
  new Gauge({
    name: 'mail_outbox_unsent',
    help: 'Mails in the outbox not yet sent nor given up (read from the store at scrape time).',
    registers: [registry],
    async collect() {
      const read = await backlog();
      if (read) this.set(read.unsent);
    },
  });
  new Gauge({
    name: 'mail_outbox_oldest_unsent_age_seconds',
    help: 'Seconds since the oldest mail not yet sent nor given up was queued; 0 when none waits.',
    registers: [registry],
    async collect() {
      const read = await backlog();
      if (read) this.set(read.oldestCreatedAt === null ? 0 : Math.max(0, (Date.now() - read.oldestCreatedAt) / 1000));
    },
  });
  new Gauge({
    name: 'mail_relay_down',
    help: '1 while this process holds the mail relay for down (it tries one mail per MAIL_RELAY_PROBE_SECONDS), else 0.',
    registers: [registry],
    collect() {
      this.set(sources().mailRelayDown?.() ? 1 : 0);
    },
  });
}

type Backlog = Awaited<ReturnType<NonNullable<ScrapeSources['mailBacklog']>>>;

/**
 * A store that does not answer leaves the gauges at their last value: the page of metrics must still
 * answer during an outage, when it is needed most (the store's own failures show in the request and
 * pool metrics).
 */
function backlogReader(source: () => ScrapeSources['mailBacklog']): () => Promise<Backlog | null> {
  return async () => {
    const read = source();
    return read ? read().catch(() => null) : null;
  };
}
