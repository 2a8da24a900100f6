import { describe, expect, test } from 'bun:test';
import { T0 } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

const TO = '+15555550123';
const message = (body: string, sentAt: number, to = TO) => ({ to, body, sentAt });

export function smsOutboxRepositoryContract(factory: StoreFactory): void {
  describe(`SmsOutboxRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('messages are listed newest first, and the later added first when sent at the same time', async () => {
      const { store } = opened();
      const sent = [message('oldest', T0), message('tied earlier', T0 + 5), message('newest', T0 + 9), message('tied later', T0 + 5)];
      for (const m of sent) await store.smsOutbox.add(m);

      const listed = await store.smsOutbox.listFor(TO, 10);

      expect(listed).toEqual([sent[2]!, sent[3]!, sent[1]!, sent[0]!]);
    });

    test('at most `limit` messages are listed: the newest ones', async () => {
      const { store } = opened();
      for (let i = 0; i < 5; i++) await store.smsOutbox.add(message(`code ${i}`, T0 + i));

      const listed = await store.smsOutbox.listFor(TO, 2);

      expect(listed.map((m) => m.body)).toEqual(['code 4', 'code 3']);
    });

    test("only the recipient's messages are listed; an unknown number has none", async () => {
      const { store } = opened();
      await store.smsOutbox.add(message('for someone else', T0, '+15555550999'));
      await store.smsOutbox.add(message('mine', T0));

      expect(await store.smsOutbox.listFor(TO, 10)).toEqual([message('mine', T0)]);
      expect(await store.smsOutbox.listFor('+15555550000', 10)).toEqual([]);
    });

    test('messages are copies: mutating what went in or came out does not change the outbox', async () => {
      const { store } = opened();
      const kept = message('your code', T0);
      await store.smsOutbox.add(kept);

      kept.body = 'tampered';
      (await store.smsOutbox.listFor(TO, 10))[0]!.to = '+10000000000';

      expect(await store.smsOutbox.listFor(TO, 10)).toEqual([message('your code', T0)]);
    });
  });
}
