import type { WebhookEventRepository } from '../../ports/webhook-event-repository.ts';
import type { MemoryTables } from './memory-tables.ts';

export class MemoryWebhookEventRepository implements WebhookEventRepository {
  constructor(private readonly tables: MemoryTables) {}

  async claim(eventId: string, type: string, at: number): Promise<boolean> {
    // No await between the check and the write: one delivery claims the event.
    const events = this.tables.webhookEvents;
    if (events.has(eventId)) return false;
    events.set(eventId, { type, receivedAt: at });
    return true;
  }

  async release(eventId: string): Promise<void> {
    this.tables.webhookEvents.delete(eventId);
  }
}
