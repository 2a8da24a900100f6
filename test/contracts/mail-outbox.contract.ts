import { describe, expect, test } from 'bun:test';
import { GIVEN_UP } from '../../src/adapters/store/messages/mail-queries.ts';
import type { QueuedMail } from '../../src/ports/mail-repository.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

const T0 = 1_800_000_000_000;
const LEASE = 60_000;
let n = 0;
const aMail = (over: Partial<QueuedMail> = {}) => ({
  id: `mail_${++n}_${Math.random().toString(36).slice(2, 8)}`,
  kind: 'receipt',
  licenseId: 'lic_1',
  to: 'ada@example.com',
  subject: 'Your license',
  text: 'key',
  html: '<p>key</p>',
  createdAt: T0,
  ...over,
});

/** The durable mail outbox: claimed before sending, one sender at a time, retried, never lost. */
export function mailOutboxContract(factory: StoreFactory) {
  describe(`mail outbox (${factory.name})`, () => {
    const current = freshStorePerTest(factory);

    test('a queued mail is claimed once per lease, counted, and comes back when the lease ends', async () => {
      const { store } = current();
      const mail = aMail();
      await store.mailOutbox.enqueue(mail);
      const [claimed] = await store.mailOutbox.claimDue(T0, 10, LEASE);
      expect(claimed).toMatchObject({ ...mail, attempts: 1, nextAttemptAt: T0 + LEASE });
      expect(await store.mailOutbox.claimDue(T0 + LEASE - 1, 10, LEASE)).toEqual([]);
      const again = await store.mailOutbox.claimDue(T0 + LEASE, 10, LEASE);
      expect(again.map((m) => [m.id, m.attempts])).toEqual([[mail.id, 2]]);
    });

    test('a sent mail is never claimed again; a failed one is due at its retry; one given up never', async () => {
      const { store } = current();
      const [sent, retried, lost] = [aMail(), aMail(), aMail()];
      for (const mail of [sent, retried, lost]) await store.mailOutbox.enqueue(mail);
      expect((await store.mailOutbox.claimDue(T0, 10, LEASE)).length).toBe(3);
      await store.mailOutbox.markSent(sent.id, T0 + 5);
      await store.mailOutbox.markFailed(retried.id, '451 try later', T0 + 10);
      await store.mailOutbox.markFailed(lost.id, '550 no such user', null);
      const due = await store.mailOutbox.claimDue(T0 + 10 * LEASE, 10, LEASE);
      expect(due.map((m) => m.id)).toEqual([retried.id]);
      await store.mailOutbox.markSent(retried.id, T0 + 10 * LEASE);
      // A late failure report of a mail already sent does not unsend it.
      await store.mailOutbox.markFailed(sent.id, 'late', T0);
      expect(await store.mailOutbox.claimDue(T0 + 100 * LEASE, 10, LEASE)).toEqual([]);
      expect(GIVEN_UP).toBeGreaterThan(T0 * 1000);
    });

    test('a released mail is due again at once, its attempt uncounted and its error kept; a sent one stays sent', async () => {
      const { store } = current();
      const [down, untried, sent] = [aMail(), aMail(), aMail()];
      for (const mail of [down, untried, sent]) await store.mailOutbox.enqueue(mail);
      expect((await store.mailOutbox.claimDue(T0, 10, LEASE)).length).toBe(3);
      await store.mailOutbox.release(down.id, 'connect ECONNREFUSED', T0 + 1);
      await store.mailOutbox.release(untried.id, null, T0 + 1);
      await store.mailOutbox.markSent(sent.id, T0 + 1);
      await store.mailOutbox.release(sent.id, 'late', T0 + 1);
      const again = await store.mailOutbox.claimDue(T0 + 1, 10, LEASE);
      expect(again.map((m) => [m.id, m.attempts]).sort()).toEqual([[down.id, 1], [untried.id, 1]].sort());
    });

    test('the backlog counts mails neither sent nor given up, and knows the oldest', async () => {
      const { store } = current();
      expect(await store.mailOutbox.backlog()).toEqual({ unsent: 0, oldestCreatedAt: null });
      const [sent, lost, waiting, newer] = [aMail({ createdAt: T0 - 9 }), aMail({ createdAt: T0 - 8 }), aMail({ createdAt: T0 - 5 }), aMail({ createdAt: T0 })];
      for (const mail of [sent, lost, waiting, newer]) await store.mailOutbox.enqueue(mail);
      await store.mailOutbox.claimDue(T0 - 8, 2, LEASE);
      await store.mailOutbox.markSent(sent.id, T0);
      await store.mailOutbox.markFailed(lost.id, '550', null);
      await store.mailOutbox.claimDue(T0, 1, LEASE); // claimed mails are still unsent
      expect(await store.mailOutbox.backlog()).toEqual({ unsent: 2, oldestCreatedAt: T0 - 5 });
    });

    test('oldest due first, at most the limit', async () => {
      const { store } = current();
      const mails = [aMail({ createdAt: T0 + 2 }), aMail({ createdAt: T0 }), aMail({ createdAt: T0 + 1 })];
      for (const mail of mails) await store.mailOutbox.enqueue(mail);
      const first = await store.mailOutbox.claimDue(T0 + 5, 2, LEASE);
      expect(first.map((m) => m.createdAt)).toEqual([T0, T0 + 1]);
    });

    test('senders claiming at once never share a mail', async () => {
      const { store, connectAgain } = current();
      const other = await connectAgain();
      const ids = Array.from({ length: 40 }, () => aMail());
      for (const mail of ids) await store.mailOutbox.enqueue(mail);
      const rounds = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? other : store).mailOutbox.claimDue(T0, 7, LEASE)));
      const claimed = rounds.flat().map((m) => m.id);
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed.every((m) => m.startsWith('mail_'))).toBe(true);
      expect(claimed.length).toBeLessThanOrEqual(40);
    });

    test('the resend count sees a license\'s mails of the given kinds since a moment', async () => {
      const { store } = current();
      await store.mailOutbox.enqueue(aMail({ licenseId: 'lic_9', kind: 'resend', createdAt: T0 }));
      await store.mailOutbox.enqueue(aMail({ licenseId: 'lic_9', kind: 'resend', createdAt: T0 + 10 }));
      await store.mailOutbox.enqueue(aMail({ licenseId: 'lic_9', kind: 'receipt', createdAt: T0 + 10 }));
      await store.mailOutbox.enqueue(aMail({ licenseId: 'lic_8', kind: 'resend', createdAt: T0 + 10 }));
      expect(await store.mailOutbox.countForLicense('lic_9', ['resend'], T0 + 1)).toBe(1);
      expect(await store.mailOutbox.countForLicense('lic_9', ['resend', 'receipt'], T0)).toBe(3);
    });

    test('kept sandbox mail is listed per address, newest first', async () => {
      const { store } = current();
      await store.sandboxMail.add({ to: 'ada@example.com', subject: 'one', text: '1', html: '<p>1</p>', sentAt: T0 });
      await store.sandboxMail.add({ to: 'ada@example.com', subject: 'two', text: '2', html: '<p>2</p>', sentAt: T0 + 1 });
      await store.sandboxMail.add({ to: 'bob@example.com', subject: 'other', text: '3', html: '<p>3</p>', sentAt: T0 + 2 });
      expect((await store.sandboxMail.listFor('ada@example.com', 10)).map((m) => m.subject)).toEqual(['two', 'one']);
      expect(await store.sandboxMail.listFor('nobody@example.com', 10)).toEqual([]);
    });
  });
}
