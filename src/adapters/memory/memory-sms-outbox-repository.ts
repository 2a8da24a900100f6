import type { OutboxMessage, SmsOutboxRepository } from '../../ports/sms-outbox-repository.ts';
import type { MemoryTables, OutboxRow } from './memory-tables.ts';
import { deleteOutboxSentBefore } from './memory-retention.ts';

/** Newest first; ties go to the later added (the higher id), as in SQLite. */
const newestFirst = (a: OutboxRow, b: OutboxRow): number => b.sentAt - a.sentAt || b.id - a.id;

export class MemorySmsOutboxRepository implements SmsOutboxRepository {
  private lastId = 0;

  constructor(private readonly tables: MemoryTables) {}

  async add(message: OutboxMessage): Promise<void> {
    const { to, body, sentAt } = message;
    this.tables.smsOutbox.push({ id: ++this.lastId, to, body, sentAt });
  }

  async listFor(to: string, limit: number): Promise<OutboxMessage[]> {
    return this.tables.smsOutbox
      .filter((m) => m.to === to)
      .sort(newestFirst)
      .slice(0, limit < 0 ? undefined : limit) // SQLite reads a negative LIMIT as none
      .map(({ to, body, sentAt }) => ({ to, body, sentAt }));
  }

  async deleteSentBefore(before: number, limit: number): Promise<number> {
    return deleteOutboxSentBefore(this.tables, before, limit);
  }
}
