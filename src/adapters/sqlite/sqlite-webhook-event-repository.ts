import { eq } from 'drizzle-orm';
import type { WebhookEventRepository } from '../../ports/webhook-event-repository.ts';
import { webhookEvents } from './schema.ts';
import type { SqliteDb } from './sqlite-store.ts';

export class SqliteWebhookEventRepository implements WebhookEventRepository {
  constructor(private readonly db: SqliteDb) {}

  async claim(eventId: string, type: string, at: number): Promise<boolean> {
    // The primary key decides: exactly one insert changes a row, however many deliveries race.
    const inserted = this.db
      .insert(webhookEvents)
      .values({ eventId, type, receivedAt: at })
      .onConflictDoNothing()
      .returning({ eventId: webhookEvents.eventId })
      .all();
    return inserted.length === 1;
  }

  async release(eventId: string): Promise<void> {
    this.db.delete(webhookEvents).where(eq(webhookEvents.eventId, eventId)).run();
  }
}
