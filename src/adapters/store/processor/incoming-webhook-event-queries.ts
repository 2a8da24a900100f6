import { eq, lt } from 'drizzle-orm';
import { deleteBatch } from '../retention.ts';
import type { IncomingWebhookEventRepository } from '../../../ports/incoming-webhook-event-repository.ts';
import type { SqlStore } from '../sql-store.ts';

export class DrizzleIncomingWebhookEventRepository implements IncomingWebhookEventRepository {
  constructor(private readonly store: SqlStore) {}

  async claim(eventId: string, type: string, at: number): Promise<boolean> {
    const { incomingWebhookEvents } = this.store.tables;
    // The primary key decides: exactly one insert returns a row, however many deliveries race.
    const inserted = await this.store.db
      .insert(incomingWebhookEvents)
      .values({ eventId, type, receivedAt: at })
      .onConflictDoNothing()
      .returning({ eventId: incomingWebhookEvents.eventId });
    return inserted.length === 1;
  }

  async release(eventId: string): Promise<void> {
    const { incomingWebhookEvents } = this.store.tables;
    await this.store.db.delete(incomingWebhookEvents).where(eq(incomingWebhookEvents.eventId, eventId));
  }

  deleteReceivedBefore(before: number, limit: number): Promise<number> {
    const { incomingWebhookEvents } = this.store.tables;
    return deleteBatch(this.store, incomingWebhookEvents, incomingWebhookEvents.eventId, lt(incomingWebhookEvents.receivedAt, before), limit);
  }
}
