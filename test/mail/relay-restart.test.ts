import { afterEach, describe, expect, test } from 'bun:test';
import { SmtpMailer } from '../../src/adapters/mail/smtp-mailer.ts';
import { jsonLogger } from '../../src/adapters/system/logger.ts';
import { startMailSender } from '../../src/adapters/system/mail-sender.ts';
import { systemClock } from '../../src/adapters/system/system-clock.ts';
import { freshStorePerTest, postgresStores, sqliteStores } from '../contracts/stores.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';

/**
 * The real sender on real time against a real SMTP server that is stopped (connections refused)
 * and started again on its port: the mail queued meanwhile arrives within the promised bound of
 * its return. Time is scaled: a few seconds of outage, a probe every second.
 */
const PROBE_MS = 1_000;
const OUTAGE_MS = 4_000;
const PROMISE_MS = 30_000;

for (const factory of [sqliteStores, postgresStores]) {
  describe(`a real relay stopped and started again (${factory.name})`, () => {
    const current = freshStorePerTest(factory);
    const closing: (() => Promise<unknown> | void)[] = [];
    afterEach(async () => {
      for (const close of closing.splice(0).reverse()) await close();
    });

    test('the backlog queued while it was down arrives within 30 s of its return, each mail once', async () => {
      const { store } = current();
      let sink: SmtpSink = await startSmtpSink();
      const port = Number(new URL(sink.url).port);
      const mailer = new SmtpMailer({ url: sink.url, from: 'Shop <shop@acme.test>', messageIdHost: 'acme.test' });
      const lines: string[] = [];
      const sender = startMailSender({ clock: systemClock, mailOutbox: store.mailOutbox, mailer }, jsonLogger('info', (l) => lines.push(l)), { everyMs: 200, probeMs: PROBE_MS });
      closing.push(() => mailer.close(), () => sender.stop(), () => sink.close());
      const enqueue = (n: number) => store.mailOutbox.enqueue({
        id: `mail_restart_${n}_${Math.random().toString(36).slice(2, 8)}`, kind: 'receipt', licenseId: null,
        to: `buyer${n}@example.com`, subject: `Receipt ${n}`, text: 'Key', html: '<p>Key</p>', createdAt: Date.now(),
      });
      await enqueue(0);
      await sink.waitFor('buyer0@example.com');

      await sink.close(); // the outage: nothing listens, every connection is refused
      const down = Date.now();
      const queued = 12;
      for (let n = 1; n <= queued; n++) {
        await enqueue(n);
        await Bun.sleep(OUTAGE_MS / queued);
      }
      while (Date.now() - down < OUTAGE_MS) await Bun.sleep(50);
      expect(sender.relayDown()).toBe(true);
      sink = await startSmtpSink({ port });
      const back = Date.now();
      const arrivals: number[] = [];
      for (let n = 1; n <= queued; n++) {
        await sink.waitFor(`buyer${n}@example.com`, 1, PROMISE_MS + 5_000);
        arrivals.push(Date.now() - back);
      }
      console.log(`real relay (${factory.name}): down ${back - down} ms, ${queued} mails; the first arrived ${arrivals[0]} ms and all ${Math.max(...arrivals)} ms after its return`);
      expect(Math.max(...arrivals)).toBeLessThanOrEqual(PROMISE_MS);
      await Bun.sleep(300);
      expect(sink.received).toHaveLength(queued);
      expect(new Set(sink.received.map((m) => m.messageId)).size).toBe(queued);
      expect(await store.mailOutbox.backlog()).toEqual({ unsent: 0, oldestCreatedAt: null });
      const logged = lines.map((l) => JSON.parse(l).msg);
      expect(logged.filter((m: string) => m.startsWith('mail relay down'))).toHaveLength(1);
      expect(logged.filter((m: string) => m.startsWith('mail relay back'))).toHaveLength(1);
    });
  });
}
