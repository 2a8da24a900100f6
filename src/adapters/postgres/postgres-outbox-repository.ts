import type { SQL } from 'bun';
import type { Attempt, DeliveryOutcome, DeliveryView, DueDelivery, OutboxRepository, OutgoingEvent, Page } from '../../ports/outbox-repository.ts';
import { deliveryView, DELIVERY_COLUMNS, type DeliveryRow } from '../webhooks/delivery-rows.ts';
import type { PostgresDb } from './postgres-store.ts';

type Row = Record<string, any>;
type Runner = { unsafe(query: string, params?: unknown[]): Promise<unknown> };

const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
const run = async (on: Runner, query: string, ...params: unknown[]): Promise<Row[]> => [...((await on.unsafe(query, params)) as Row[])];

/**
 * The outbox on PostgreSQL (events and deliveries written by the triggers of migration 0003). Claims
 * use FOR UPDATE SKIP LOCKED, so instances polling together each take different deliveries.
 */
export class PostgresOutboxRepository implements OutboxRepository {
  private readonly sql: SQL;

  constructor(db: PostgresDb) {
    this.sql = (db as unknown as { $client: SQL }).$client;
  }

  async claimDue(now: number, leaseMs: number, limit: number): Promise<DueDelivery[]> {
    const rows = await run(
      this.sql,
      `WITH claimed AS (
         UPDATE webhook_deliveries SET locked_until = $1 WHERE id IN (
           SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $2 AND (locked_until IS NULL OR locked_until < $2)
           ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING id, endpoint_id, event_id, attempts)
       SELECT c.id, c.endpoint_id, c.attempts, e.url, e.sealed_secret, ev.id AS event_id, ev.type, ev.data, ev.created_at
       FROM claimed c JOIN webhook_endpoints e ON e.id = c.endpoint_id AND e.enabled JOIN outgoing_events ev ON ev.id = c.event_id`,
      now + leaseMs, now, limit,
    );
    return rows.map((r) => ({
      id: r.id, endpointId: r.endpoint_id, url: r.url, sealedSecret: r.sealed_secret, attempts: Number(r.attempts),
      event: { id: r.event_id, type: r.type, data: json(r.data), createdAt: Number(r.created_at) },
    }));
  }

  async recordAttempt(delivery: { id: string; endpointId: string }, attempt: Attempt, outcome: DeliveryOutcome, health: { disableAfterMs: number; disabledReason: string }): Promise<void> {
    await this.sql.begin(async (tx) => {
      await run(tx, 'INSERT INTO webhook_attempts (delivery_id, attempted_at, status, error, duration_ms) SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = $1)',
        delivery.id, attempt.at, attempt.status, attempt.error, attempt.durationMs);
      await run(tx, `UPDATE webhook_deliveries SET status = $1, attempts = attempts + 1, next_attempt_at = coalesce($2, next_attempt_at), locked_until = NULL,
          last_attempt_at = $3, last_status = $4, last_error = $5 WHERE id = $6 AND status = 'pending'`,
        outcome.status, outcome.status === 'pending' ? outcome.nextAttemptAt : null, attempt.at, attempt.status, attempt.error, delivery.id);
      if (outcome.status === 'succeeded') {
        await run(tx, 'UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL', delivery.endpointId);
        return;
      }
      await run(tx, 'UPDATE webhook_endpoints SET failing_since = $1 WHERE id = $2 AND failing_since IS NULL', attempt.at, delivery.endpointId);
      const disabled = await run(tx, 'UPDATE webhook_endpoints SET enabled = false, disabled_reason = $1, updated_at = $2 WHERE id = $3 AND enabled AND failing_since <= $4 RETURNING id',
        health.disabledReason, attempt.at, delivery.endpointId, attempt.at - health.disableAfterMs);
      if (disabled.length > 0) {
        await run(tx, `UPDATE webhook_deliveries SET status = 'failed', last_error = 'endpoint disabled', locked_until = NULL WHERE endpoint_id = $1 AND status = 'pending'`, delivery.endpointId);
      }
    });
  }

  async listDeliveries(developerId: string, endpointId: string, page: { limit: number; startingAfter?: string }): Promise<Page<DeliveryView>> {
    const [cursor] = page.startingAfter ? await run(this.sql, 'SELECT created_at, id FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2 AND developer_id = $3', page.startingAfter, endpointId, developerId) : [];
    const rows = (await run(
      this.sql,
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d LEFT JOIN outgoing_events ev ON ev.id = d.event_id
       WHERE d.endpoint_id = $1 AND d.developer_id = $2 ${cursor ? 'AND (d.created_at, d.id COLLATE "C") < ($4, $5 COLLATE "C")' : ''}
       ORDER BY d.created_at DESC, d.id COLLATE "C" DESC LIMIT $3`,
      endpointId, developerId, page.limit + 1, ...(cursor ? [cursor.created_at, cursor.id] : []),
    )) as DeliveryRow[];
    return { data: rows.slice(0, page.limit).map(deliveryView), hasMore: rows.length > page.limit };
  }

  async getDelivery(developerId: string, id: string): Promise<(DeliveryView & { attemptLog: Attempt[] }) | null> {
    const [row] = (await run(this.sql, `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d LEFT JOIN outgoing_events ev ON ev.id = d.event_id WHERE d.id = $1 AND d.developer_id = $2`, id, developerId)) as DeliveryRow[];
    if (!row) return null;
    const attempts = await run(this.sql, 'SELECT attempted_at, status, error, duration_ms FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempted_at, id', id);
    return { ...deliveryView(row), attemptLog: attempts.map((a) => ({ at: Number(a.attempted_at), status: a.status, error: a.error, durationMs: Number(a.duration_ms) })) };
  }

  async redeliver(developerId: string, id: string, now: number): Promise<DeliveryView | null> {
    const updated = await run(this.sql, `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $1, locked_until = NULL WHERE id = $2 AND developer_id = $3 RETURNING id`, now, id, developerId);
    return updated.length === 0 ? null : this.getDelivery(developerId, id);
  }

  async listEvents(developerId: string, page: { limit: number; startingAfter?: string }): Promise<Page<OutgoingEvent> | null> {
    const [cursor] = page.startingAfter ? await run(this.sql, 'SELECT created_at, id FROM outgoing_events WHERE id = $1 AND developer_id = $2', page.startingAfter, developerId) : [];
    if (page.startingAfter && !cursor) return null;
    const rows = await run(
      this.sql,
      `SELECT id, type, data, created_at FROM outgoing_events WHERE developer_id = $1 ${cursor ? 'AND (created_at, id COLLATE "C") < ($3, $4 COLLATE "C")' : ''}
       ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT $2`,
      developerId, page.limit + 1, ...(cursor ? [cursor.created_at, cursor.id] : []),
    );
    const events = rows.map((r) => ({ id: r.id, type: r.type, data: json(r.data), createdAt: Number(r.created_at) }));
    return { data: events.slice(0, page.limit), hasMore: events.length > page.limit };
  }

  async sendTest(developerId: string, endpointId: string, data: unknown): Promise<DeliveryView | null> {
    const id = await this.sql.begin(async (tx) => {
      if ((await run(tx, 'SELECT id FROM webhook_endpoints WHERE id = $1 AND developer_id = $2', endpointId, developerId)).length === 0) return null;
      const [event] = await run(tx, `INSERT INTO outgoing_events (id, developer_id, type, data, created_at) VALUES (licensing_event_id('msg'), $1, 'webhook.test', $2::text::jsonb, licensing_now()) RETURNING id, created_at`,
        developerId, JSON.stringify(data));
      // The fan-out trigger also served the seller's other endpoints that take every event: a test is for this one only.
      await run(tx, 'DELETE FROM webhook_deliveries WHERE event_id = $1 AND endpoint_id <> $2', event!.id, endpointId);
      await run(tx, `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, developer_id, status, attempts, next_attempt_at, created_at)
          VALUES (licensing_event_id('del'), $1, $2, $3, 'pending', 0, 0, $4) ON CONFLICT DO NOTHING`, event!.id, endpointId, developerId, event!.created_at);
      const [delivery] = await run(tx, 'SELECT id FROM webhook_deliveries WHERE event_id = $1 AND endpoint_id = $2', event!.id, endpointId);
      return delivery!.id as string;
    });
    return id === null ? null : this.getDelivery(developerId, id);
  }

  async announceExpiries(now: number, limit: number): Promise<number> {
    // Revoked licenses are marked too (no event: the trigger wants an active one), so none lingers in the partial index.
    const rows = await run(this.sql, `UPDATE licenses SET expiry_announced_at = $1 WHERE id IN (
        SELECT id FROM licenses WHERE expiry_announced_at IS NULL AND expires_at IS NOT NULL AND expires_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING id`, now, limit);
    return rows.length;
  }

  async expireCheckouts(expiredBefore: number, limit: number): Promise<number> {
    const rows = await run(this.sql, `UPDATE checkout_sessions SET status = 'expired' WHERE id IN (
        SELECT id FROM checkout_sessions WHERE status = 'pending' AND expires_at <= $1 AND license_id IS NULL LIMIT $2 FOR UPDATE SKIP LOCKED) AND status = 'pending' RETURNING id`, expiredBefore, limit);
    return rows.length;
  }

  async deleteOlderThan(before: number, limit: number): Promise<number> {
    return this.sql.begin(async (tx) => {
      const ids = (await run(tx, 'SELECT id FROM outgoing_events WHERE created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED', before, limit)).map((r) => r.id as string);
      if (ids.length === 0) return 0;
      await run(tx, 'DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE event_id = ANY($1::text[]))', ids);
      await run(tx, 'DELETE FROM webhook_deliveries WHERE event_id = ANY($1::text[])', ids);
      return (await run(tx, 'DELETE FROM outgoing_events WHERE id = ANY($1::text[]) RETURNING id', ids)).length;
    });
  }
}
