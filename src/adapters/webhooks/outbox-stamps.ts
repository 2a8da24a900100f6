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
