import { eq, lt } from 'drizzle-orm';
import { deleteBatch } from '../retention.ts';
import type { WebhookEventRepository } from '../../../ports/webhook-event-repository.ts';
import type { SqlStore } from '../sql-store.ts';

export class DrizzleWebhookEventRepository implements WebhookEventRepository {
  constructor(private readonly store: SqlStore) {}

  async claim(eventId: string, type: string, at: number): Promise<boolean> {
    const { webhookEvents } = this.store.tables;
    // The primary key decides: exactly one insert returns a row, however many deliveries race.
    const inserted = await this.store.db
      .insert(webhookEvents)
      .values({ eventId, type, receivedAt: at })
      .onConflictDoNothing()
      .returning({ eventId: webhookEvents.eventId });
    return inserted.length === 1;
  }

  async release(eventId: string): Promise<void> {
    const { webhookEvents } = this.store.tables;
    await this.store.db.delete(webhookEvents).where(eq(webhookEvents.eventId, eventId));
  }

  deleteReceivedBefore(before: number, limit: number): Promise<number> {
    const { webhookEvents } = this.store.tables;
    return deleteBatch(this.store, webhookEvents, webhookEvents.eventId, lt(webhookEvents.receivedAt, before), limit);
  }
}
