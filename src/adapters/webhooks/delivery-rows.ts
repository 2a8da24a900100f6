import type { DeliveryStatus, DeliveryView } from '../../ports/outbox-repository.ts';

/** The columns a delivery is shown with (d: webhook_deliveries, ev: outgoing_events). Shared by both SQL stores. */
export const DELIVERY_COLUMNS = `d.id, d.event_id, ev.type AS event_type, d.endpoint_id, d.status, d.attempts, d.next_attempt_at, d.last_attempt_at, d.last_status, d.last_error, d.created_at`;

export interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string | null;
  endpoint_id: string;
  status: DeliveryStatus;
  attempts: number | string;
  next_attempt_at: number | string;
  last_attempt_at: number | string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number | string;
}

const num = (v: number | string | null) => (v === null ? null : Number(v));

export function deliveryView(r: DeliveryRow): DeliveryView {
  return {
    id: r.id, eventId: r.event_id, eventType: r.event_type ?? 'unknown', endpointId: r.endpoint_id, status: r.status, attempts: Number(r.attempts),
    lastAttemptAt: num(r.last_attempt_at), lastStatus: r.last_status, lastError: r.last_error,
    nextAttemptAt: r.status === 'pending' ? Number(r.next_attempt_at) : null, createdAt: Number(r.created_at),
  };
}
