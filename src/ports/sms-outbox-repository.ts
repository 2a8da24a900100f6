/** The sandbox's SMS outbox: messages kept instead of sent. */
export interface OutboxMessage {
  to: string;
  body: string;
  sentAt: number;
}

/** The sandbox's store of messages kept instead of sent (texts, or mail), by recipient. */
export interface KeptMessageRepository<T extends { to: string; sentAt: number }> {
  add(message: T): Promise<void>;
  /** Newest first. */
  listFor(to: string, limit: number): Promise<T[]>;
  /** Retention: deletes up to `limit` messages sent before `before`; returns how many. */
  deleteSentBefore(before: number, limit: number): Promise<number>;
}

export type SmsOutboxRepository = KeptMessageRepository<OutboxMessage>;
