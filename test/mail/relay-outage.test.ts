import { afterEach, describe, expect, test } from 'bun:test';
import { createServer, type Server } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { SmtpMailer } from '../../src/adapters/mail/smtp-mailer.ts';
import { MAIL_RETRY_MS, sendDueMail } from '../../src/app/mail/send-mail.ts';
import { MAIL_PROBE_MS, RelayCircuit } from '../../src/app/mail/relay-circuit.ts';
import { FixedClock } from '../support/clock.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { freshStorePerTest, sqliteMemoryStores, postgresStores } from '../contracts/stores.ts';

/**
 * A relay that is down: it answers every connection with `421 Service not available` and hangs
 * up, counting the connections. After the outage it is closed and a real SMTP server takes its port.
 */
async function startDownRelay(port = 0): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    socket.end('421 relay.test Service not available, closing transmission channel\r\n');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const mail = (n: number, createdAt: number, to = `buyer${n}@example.com`) => ({
  id: `mail_outage_${n}_${Math.random().toString(36).slice(2, 8)}`, kind: 'receipt', licenseId: null, to,
  subject: `Receipt ${n}`, text: 'Key: KEY-123', html: '<p>Key</p>', createdAt,
});

const OUTAGE_MS = 4 * 60_000;
const TICK_MS = 1_000; // the sender's round interval

for (const factory of [sqliteMemoryStores, postgresStores]) {
  describe(`a relay outage (${factory.name})`, () => {
    const current = freshStorePerTest(factory);
    let sink: SmtpSink | undefined;
    afterEach(async () => {
      await sink?.close();
      sink = undefined;
    });

    test('a 4-minute outage: one probe per interval while it is down, the backlog drained within 30 s of its return', async () => {
      const { store } = current();
      const clock = new FixedClock();
      const start = clock.now();
      const down = await startDownRelay();
      const mailer = new SmtpMailer({ url: `smtp://u:p@127.0.0.1:${down.port}`, from: 'Shop <shop@acme.test>', messageIdHost: 'acme.test' });
      const relay = new RelayCircuit();
      const deps = { clock, mailOutbox: store.mailOutbox, mailer };
      // The sender's loop on simulated time: a round each second, rounds back to back while full.
      const tick = async () => {
        while ((await sendDueMail(deps, { relay })).full);
        clock.advance(TICK_MS);
      };
      let queued = 0;
      // The outage: a receipt every 8 s from its 3rd second (30 of them), the relay refusing throughout.
      while (clock.now() - start < OUTAGE_MS) {
        if ((clock.now() - start) % 8_000 === 3_000) await store.mailOutbox.enqueue(mail(queued++, clock.now()));
        await tick();
      }
      const probes = down.connections();
      await down.close();
      sink = await startSmtpSink({ port: down.port });
      const back = clock.now();
      const sentAt: number[] = [];
      while (sentAt.length < queued && clock.now() - back < 10 * 60_000) {
        const before = sink.received.length;
        await tick();
        for (let i = before; i < sink.received.length; i++) sentAt.push(clock.now() - TICK_MS - back);
      }
      mailer.close();
      console.log(`outage ${OUTAGE_MS / 1000} s simulated, ${queued} mails queued, ${probes} connections while down; first mail ${sentAt[0]! / 1000} s and last ${sentAt.at(-1)! / 1000} s after the relay's return`);

      expect(sentAt).toHaveLength(queued);
      expect(sentAt.at(-1)!).toBeLessThanOrEqual(30_000);
      // At most one probe per interval while down (plus the first failure, which opened the circuit).
      expect(probes).toBeLessThanOrEqual(Math.ceil(OUTAGE_MS / MAIL_PROBE_MS) + 1);
      expect(probes).toBeGreaterThanOrEqual(Math.floor(OUTAGE_MS / MAIL_PROBE_MS) - 1);
      // Every mail went out once, and none was given up or pushed to a personal backoff.
      expect(new Set(sink.received.map((m) => m.messageId)).size).toBe(queued);
      expect((await store.mailOutbox.claimDue(clock.now() + 365 * 86_400_000, 100, 60_000)).length).toBe(0);
    });

    test('a relay that refuses one recipient keeps that mail on its own schedule; the others go on', async () => {
      const { store } = current();
      const clock = new FixedClock();
      const picky = await startPickyRelay();
      const mailer = new SmtpMailer({ url: picky.url, from: 'Shop <shop@acme.test>', messageIdHost: 'acme.test' });
      const relay = new RelayCircuit();
      const deps = { clock, mailOutbox: store.mailOutbox, mailer };
      const bounced = mail(1, clock.now(), 'nobody@example.com');
      const busy = mail(2, clock.now(), 'busy@example.com');
      await store.mailOutbox.enqueue(bounced);
      await store.mailOutbox.enqueue(busy);
      for (let i = 3; i < 6; i++) await store.mailOutbox.enqueue(mail(i, clock.now()));
      const round = await sendDueMail(deps, { relay });
      expect(round).toMatchObject({ sent: 3, failed: 2, givenUp: [] });
      expect(relay.down).toBe(false);
      // Each keeps its own backoff: not due before its first retry, due at it.
      clock.advance(MAIL_RETRY_MS[0] - 1);
      expect(await sendDueMail(deps, { relay })).toMatchObject({ sent: 0, failed: 0 });
      clock.advance(1);
      expect(await sendDueMail(deps, { relay })).toMatchObject({ sent: 0, failed: 2 });
      mailer.close();
      await picky.close();
    });
  });
}

/** Accepts every recipient but two: a permanent 550 for one, a temporary 450 (mailbox busy) for the other. */
async function startPickyRelay() {
  let delivered = 0;
  const server = new SMTPServer({
    secure: false, disabledCommands: ['STARTTLS'], authOptional: true, logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    onRcptTo(address, _session, callback) {
      if (address.address === 'nobody@example.com') return callback(Object.assign(new Error('no such user'), { responseCode: 550 }));
      if (address.address === 'busy@example.com') return callback(Object.assign(new Error('mailbox busy'), { responseCode: 450 }));
      callback();
    },
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        delivered++;
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { url: `smtp://u:p@127.0.0.1:${port}`, delivered: () => delivered, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
