import { eq } from 'drizzle-orm';
import type { WebhookEventRepository } from '../../ports/webhook-event-repository.ts';
import { webhookEvents } from './schema.ts';
import type { PostgresDb } from './postgres-store.ts';

export class PostgresWebhookEventRepository implements WebhookEventRepository {
  constructor(private readonly db: PostgresDb) {}

  async claim(eventId: string, type: string, at: number): Promise<boolean> {
    // The primary key decides: exactly one insert returns a row, however many deliveries race.
    const inserted = await this.db
      .insert(webhookEvents)
      .values({ eventId, type, receivedAt: at })
      .onConflictDoNothing()
      .returning({ eventId: webhookEvents.eventId });
    return inserted.length === 1;
  }

  async release(eventId: string): Promise<void> {
    await this.db.delete(webhookEvents).where(eq(webhookEvents.eventId, eventId));
  }
}
