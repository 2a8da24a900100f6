import { randomBytes } from 'node:crypto';

/**
 * The outbox's ids, for both SQL stores: `msg_` an event (the webhook-id header, the same on every
 * attempt), `del_` one delivery of it; 96 random bits in hex.
 */
export function outboxId(prefix: 'msg' | 'del'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/**
 * When an event is written: the machine's clock, as the database's was when triggers wrote events
 * (a seller's webhook timestamps and the 30-day retention are real time, even under a sandbox clock).
 */
export function outboxNow(): number {
  return Date.now();
}

/** An event as written: the id its deliveries point to, and its time. */
export interface WrittenEvent {
  id: string;
  createdAt: number;
}

/** The stamps of an event about to be written. */
export function stampEvent(): WrittenEvent {
  return { id: outboxId('msg'), createdAt: outboxNow() };
}

/** One delivery of the event per endpoint, due at once. */
export function deliveryRows(event: WrittenEvent, developerId: string, endpointIds: string[]) {
  return endpointIds.map((endpointId) => ({
    id: outboxId('del'), eventId: event.id, endpointId, developerId, status: 'pending' as const, attempts: 0, nextAttemptAt: 0, createdAt: event.createdAt,
  }));
}
