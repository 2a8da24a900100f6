import { desc, eq } from 'drizzle-orm';
import type { OutboxMessage, SmsOutboxRepository } from '../../../ports/sms-outbox-repository.ts';
import { deleteOutboxSentBefore } from '../retention.ts';
import type { SqlStore } from '../sql-store.ts';

export class DrizzleSmsOutboxRepository implements SmsOutboxRepository {
  constructor(private readonly store: SqlStore) {}

  async add(message: OutboxMessage): Promise<void> {
    const { to, body, sentAt } = message;
    await this.store.db.insert(this.store.tables.smsOutbox).values({ to, body, sentAt });
  }

  async listFor(to: string, limit: number): Promise<OutboxMessage[]> {
    const { smsOutbox } = this.store.tables;
    return this.store.db
      .select({ to: smsOutbox.to, body: smsOutbox.body, sentAt: smsOutbox.sentAt })
      .from(smsOutbox)
      .where(eq(smsOutbox.to, to))
      .orderBy(desc(smsOutbox.sentAt), desc(smsOutbox.id))
      .limit(limit);
  }

  async deleteSentBefore(before: number, limit: number): Promise<number> {
    return deleteOutboxSentBefore(this.store, before, limit);
  }
}
