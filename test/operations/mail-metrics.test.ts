import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { metricsRoutes } from '../../src/adapters/http/routes/metrics.ts';
import { SmtpMailer } from '../../src/adapters/mail/smtp-mailer.ts';
import { ServiceMetrics } from '../../src/adapters/system/metrics.ts';
import { RelayCircuit } from '../../src/app/mail/relay-circuit.ts';
import { sendDueMail } from '../../src/app/mail/send-mail.ts';
import { freshStorePerTest, postgresStores, sqliteStores } from '../contracts/stores.ts';
import { FixedClock } from '../support/clock.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

/** One sample's value on the page (null when absent): `name{labels}` exactly as Prometheus prints it. */
function sample(page: string, series: string): number | null {
  const line = page.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

let sink: SmtpSink;
let mailer: SmtpMailer;
beforeAll(async () => {
  sink = await startSmtpSink();
  mailer = new SmtpMailer({ url: sink.url, from: 'Shop <shop@acme.test>', messageIdHost: 'acme.test' });
});
afterAll(async () => {
  mailer.close();
  await sink.close();
});

for (const factory of [sqliteStores, postgresStores]) {
  describe(`the mail outbox on GET /metrics (${factory.name})`, () => {
    const current = freshStorePerTest(factory);

    test('depth and oldest age read from the store; sent and failed attempts counted by outcome', async () => {
      const { store, connectAgain } = current();
      const clock = new FixedClock(Date.now());
      const relay = new RelayCircuit();
      const metrics = new ServiceMetrics();
      // Another instance's view of the same store: the gauges are the store's, not the sender's.
      const other = await connectAgain();
      metrics.readFrom({ mailBacklog: () => other.mailOutbox.backlog(), mailRelayDown: () => relay.down });
      const app = metricsRoutes(metrics, TOKEN);
      const page = async () => {
        const response = await app.handle(new Request('http://localhost/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }));
        expect(response.status).toBe(200);
        return response.text();
      };
      const empty = await page();
      expect(sample(empty, 'mail_outbox_unsent')).toBe(0);
      expect(sample(empty, 'mail_outbox_oldest_unsent_age_seconds')).toBe(0);
      expect(sample(empty, 'mail_send_failures_total{outcome="given_up"}')).toBe(0);

      const ages = [120_000, 60_000, 30_000];
      for (const [i, age] of ages.entries()) {
        await store.mailOutbox.enqueue({ id: `mail_metrics_${i}_${factory.name.length}_${Math.random().toString(36).slice(2, 8)}`, kind: 'receipt', licenseId: null, to: `m${i}@example.com`, subject: 's', text: 't', html: '<p>t</p>', createdAt: clock.now() - age });
      }
      const queued = await page();
      expect(sample(queued, 'mail_outbox_unsent')).toBe(3);
      expect(sample(queued, 'mail_outbox_oldest_unsent_age_seconds')).toBeGreaterThanOrEqual(120);
      expect(sample(queued, 'mail_outbox_oldest_unsent_age_seconds')).toBeLessThan(600);

      const deps = { clock, mailOutbox: store.mailOutbox, mailer, metrics };
      sink.refuseNext(1, 550); // the oldest refused for itself: retried on its own schedule
      expect(await sendDueMail(deps, { relay })).toMatchObject({ sent: 2, failed: 1 });
      clock.advance(60_000);
      sink.refuseNext(1, 451); // then the relay cannot take mail: down
      expect(await sendDueMail(deps, { relay })).toMatchObject({ sent: 0, deferred: 1 });

      const after = await page();
      expect(sample(after, 'mail_sent_total')).toBe(2);
      expect(sample(after, 'mail_send_failures_total{outcome="retrying"}')).toBe(1);
      expect(sample(after, 'mail_send_failures_total{outcome="relay_down"}')).toBe(1);
      expect(sample(after, 'mail_send_failures_total{outcome="given_up"}')).toBe(0);
      expect(sample(after, 'mail_outbox_unsent')).toBe(1);
      expect(sample(after, 'mail_outbox_oldest_unsent_age_seconds')).toBeGreaterThanOrEqual(120);
      expect(sample(after, 'mail_relay_down')).toBe(1);
      expect(after).toContain('# TYPE mail_outbox_unsent gauge');
      expect(after).toContain('# TYPE mail_send_failures_total counter');
    });
  });
}

test('a store that does not answer leaves the outbox gauges at their last value: the metrics page still answers', async () => {
  const metrics = new ServiceMetrics();
  let reachable = true;
  metrics.readFrom({
    mailBacklog: async () => {
      if (!reachable) throw Object.assign(new Error('connection refused'), { code: 'ERR_POSTGRES_CONNECTION_REFUSED' });
      return { unsent: 4, oldestCreatedAt: Date.now() - 60_000 };
    },
  });
  const app = metricsRoutes(metrics, TOKEN);
  const scrape = () => app.handle(new Request('http://localhost/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }));

  expect(sample(await (await scrape()).text(), 'mail_outbox_unsent')).toBe(4);
  reachable = false;
  const during = await scrape();

  expect(during.status).toBe(200);
  expect(sample(await during.text(), 'mail_outbox_unsent')).toBe(4);
});
