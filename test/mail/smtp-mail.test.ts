import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { SmtpMailer } from '../../src/adapters/mail/smtp-mailer.ts';
import { MAIL_LEASE_MS, MAIL_RETRY_MS, sendDueMail, sendDueMail as send } from '../../src/app/mail/send-mail.ts';
import { MAIL_PROBE_MS, RelayCircuit } from '../../src/app/mail/relay-circuit.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { FixedClock } from '../support/clock.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';

let sink: SmtpSink;
let mailer: SmtpMailer;
beforeAll(async () => {
  sink = await startSmtpSink();
  mailer = new SmtpMailer({ url: sink.url, from: 'Acme Licensing <licenses@acme.test>', messageIdHost: 'licensing.acme.test' });
});
afterAll(async () => {
  mailer.close();
  await sink.close();
});

const mail = (to: string, id = `mail_${Math.random().toString(36).slice(2)}`) => ({
  id, kind: 'receipt', licenseId: null, to, subject: 'Your Acme Pro license', text: 'Key: KEY-123', html: '<p>Key: <code>KEY-123</code></p>', createdAt: Date.UTC(2026, 0, 1),
});

describe('mail over SMTP (nodemailer to a real SMTP server)', () => {
  test('a message arrives with its From, subject, text and HTML parts, and its id as Message-ID', async () => {
    await mailer.send({ id: 'mail_abc', to: 'ada@example.com', subject: 'Hello', text: 'Plain body', html: '<p>HTML body</p>' });
    const [received] = await sink.waitFor('ada@example.com');
    expect(received!.from).toBe('licenses@acme.test');
    expect(received!.subject).toBe('Hello');
    expect(received!.text.trim()).toBe('Plain body');
    expect(received!.html).toContain('<p>HTML body</p>');
    expect(received!.messageId).toBe('<mail_abc@licensing.acme.test>');
  });

  test('a relay that cannot take mail now (451): the mail stays queued, goes with the next probe, and arrives once with the same Message-ID', async () => {
    const store = openSqliteStore(':memory:');
    const clock = new FixedClock();
    const relay = new RelayCircuit();
    const mailOutbox = store.mailOutbox;
    const deps = { clock, mailOutbox, mailer };
    const sendDueMail = (d: typeof deps) => send(d, { relay });
    const queued = mail('bob@example.com');
    await store.mailOutbox.enqueue({ ...queued, createdAt: clock.now() });
    sink.refuseNext(1);

    const first = await sendDueMail(deps);
    expect(first).toMatchObject({ sent: 0, failed: 0, deferred: 1, givenUp: [], relayError: expect.stringContaining('451') });
    expect(relay.down).toBe(true);
    expect(await sendDueMail(deps)).toMatchObject({ sent: 0, failed: 0 }); // no probe yet
    clock.advance(MAIL_PROBE_MS);
    expect(await sendDueMail(deps)).toMatchObject({ sent: 1, failed: 0 });
    clock.advance(MAIL_LEASE_MS * 10);
    expect(await sendDueMail(deps)).toMatchObject({ sent: 0, failed: 0 });

    const received = await sink.waitFor('bob@example.com');
    expect(received).toHaveLength(1);
    expect(received[0]!.messageId).toBe(`<${queued.id}@licensing.acme.test>`);
    await store.close();
  });

  test('a sender that crashed after claiming: the mail goes out once the lease ends, once', async () => {
    const store = openSqliteStore(':memory:');
    const clock = new FixedClock();
    const queued = mail('cy@example.com');
    await store.mailOutbox.enqueue({ ...queued, createdAt: clock.now() });
    // The crashed sender: claimed, never sent, never recorded.
    expect(await store.mailOutbox.claimDue(clock.now(), 10, MAIL_LEASE_MS)).toHaveLength(1);
    const deps = { clock, mailOutbox: store.mailOutbox, mailer };
    expect(await sendDueMail(deps)).toMatchObject({ sent: 0 });
    clock.advance(MAIL_LEASE_MS);
    expect(await sendDueMail(deps)).toMatchObject({ sent: 1 });
    clock.advance(MAIL_LEASE_MS);
    expect(await sendDueMail(deps)).toMatchObject({ sent: 0 });
    expect(await sink.waitFor('cy@example.com')).toHaveLength(1);
    await store.close();
  });

  test('a mail the relay keeps refusing (550) is given up after its last retry, and reported', async () => {
    const store = openSqliteStore(':memory:');
    const clock = new FixedClock();
    const queued = mail('dee@example.com');
    await store.mailOutbox.enqueue({ ...queued, createdAt: clock.now() });
    sink.refuseNext(MAIL_RETRY_MS.length + 1, 550);
    const deps = { clock, mailOutbox: store.mailOutbox, mailer };
    const rounds = [];
    for (let i = 0; i <= MAIL_RETRY_MS.length; i++) {
      rounds.push(await sendDueMail(deps));
      clock.advance(MAIL_RETRY_MS[i] ?? 0);
    }
    expect(rounds.map((r) => r.failed)).toEqual(Array(MAIL_RETRY_MS.length + 1).fill(1));
    expect(rounds.at(-1)!.givenUp).toEqual([{ id: queued.id, kind: 'receipt', error: expect.stringContaining('550') }]);
    clock.advance(365 * 86_400_000);
    expect(await sendDueMail(deps)).toMatchObject({ sent: 0, failed: 0 });
    expect(sink.to('dee@example.com')).toEqual([]);
    await store.close();
  });
});
