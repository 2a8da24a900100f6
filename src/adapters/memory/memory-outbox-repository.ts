import type { Attempt, DeliveryView, DueDelivery, OutboxRepository, OutgoingEvent, Page } from '../../ports/outbox-repository.ts';

/**
 * The memory store writes no events (it has no triggers): an outbox that is always empty, so the
 * Store is complete and the dispatcher finds nothing to do.
 */
export class MemoryOutboxRepository implements OutboxRepository {
  async claimDue(): Promise<DueDelivery[]> {
    return [];
  }
  async recordAttempt(): Promise<void> {}
  async listDeliveries(): Promise<Page<DeliveryView>> {
    return { data: [], hasMore: false };
  }
  async getDelivery(): Promise<(DeliveryView & { attemptLog: Attempt[] }) | null> {
    return null;
  }
  async redeliver(): Promise<DeliveryView | null> {
    return null;
  }
  async listEvents(_developerId: string, page: { startingAfter?: string }): Promise<Page<OutgoingEvent> | null> {
    return page.startingAfter ? null : { data: [], hasMore: false };
  }
  async sendTest(): Promise<DeliveryView | null> {
    return null;
  }
  async announceExpiries(): Promise<number> {
    return 0;
  }
  async expireCheckouts(): Promise<number> {
    return 0;
  }
  async deleteOlderThan(): Promise<number> {
    return 0;
  }
}
