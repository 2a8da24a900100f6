/** The sandbox's SMS outbox: messages kept instead of sent. */
export interface OutboxMessage {
  to: string;
  body: string;
  sentAt: number;
}

export interface SmsOutboxRepository {
  add(message: OutboxMessage): Promise<void>;
  /** Newest first. */
  listFor(to: string, limit: number): Promise<OutboxMessage[]>;
  /** Retention: deletes up to `limit` messages sent before `before`; returns how many. */
  deleteSentBefore(before: number, limit: number): Promise<number>;
}
