import { describe, expect, test } from 'bun:test';
import { OutboxSmsSender } from '../../src/adapters/sandbox/outbox-sms-sender.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import type { SmsOutboxRepository } from '../../src/ports/sms-outbox-repository.ts';
import { FixedClock } from '../support/clock.ts';

const outboxOf = (): SmsOutboxRepository => openSqliteStore(':memory:').smsOutbox;

describe('OutboxSmsSender over the SQLite outbox', () => {
  test('a sent message is kept with its recipient, its text and the time it was sent', async () => {
    const outbox = outboxOf();
    const clock = new FixedClock();
    const sms = new OutboxSmsSender(outbox, clock);

    await sms.send('+15551234567', 'Your Acme code is 123456. It expires in 5 minutes.');

    expect(await outbox.listFor('+15551234567', 50)).toEqual([
      { to: '+15551234567', body: 'Your Acme code is 123456. It expires in 5 minutes.', sentAt: clock.now() },
    ]);
  });

  test('messages read back newest first, and only those to that phone', async () => {
    const outbox = outboxOf();
    const clock = new FixedClock();
    const sms = new OutboxSmsSender(outbox, clock);

    await sms.send('+15551234567', 'first');
    clock.advance(1_000);
    await sms.send('+15559876543', 'someone else');
    clock.advance(1_000);
    await sms.send('+15551234567', 'second');

    expect((await outbox.listFor('+15551234567', 50)).map((m) => m.body)).toEqual(['second', 'first']);
  });
});
