import { desc, eq } from 'drizzle-orm';
import type { OutboxMessage, SmsOutboxRepository } from '../../ports/sms-outbox-repository.ts';
import { smsOutbox } from './schema.ts';
import type { PostgresDb } from './postgres-store.ts';
import { deleteOutboxSentBefore } from './postgres-retention.ts';

const messageColumns = { to: smsOutbox.to, body: smsOutbox.body, sentAt: smsOutbox.sentAt };

export class PostgresSmsOutboxRepository implements SmsOutboxRepository {
  constructor(private readonly db: PostgresDb) {}

  async add(message: OutboxMessage): Promise<void> {
    const { to, body, sentAt } = message;
    await this.db.insert(smsOutbox).values({ to, body, sentAt });
  }

  async listFor(to: string, limit: number): Promise<OutboxMessage[]> {
    return this.db
      .select(messageColumns)
      .from(smsOutbox)
      .where(eq(smsOutbox.to, to))
      .orderBy(desc(smsOutbox.sentAt), desc(smsOutbox.id))
      .limit(limit);
  }

  async deleteSentBefore(before: number, limit: number): Promise<number> {
    return deleteOutboxSentBefore(this.db, before, limit);
  }
}
