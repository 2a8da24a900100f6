import type { Attempt, DeliveryOutcome, DeliveryStatus, DeliveryView, DueDelivery, EventPage, OutboxRepository, OutgoingEvent, Page } from '../../../ports/outbox-repository.ts';
import type { Database } from 'bun:sqlite';
import { eq } from 'drizzle-orm';
import { checkoutSessions } from '../../sqlite/schema.ts';
import { checkoutChanged, licenseExpired, TRIAL_ENDING_NOTICE_MS, trialEnding } from '../../../domain/events.ts';
import { sessionOf } from '../checkouts/checkout-queries.ts';
import { emitSqliteEvent, insertSqliteDeliveries, insertSqliteEvent } from '../events/sqlite-events.ts';
import { licenseSubject } from '../licenses/sqlite-license-writes.ts';
import type { SqliteDb } from '../../sqlite/sqlite-store.ts';
import { deliveryView, DELIVERY_COLUMNS, type DeliveryRow } from '../../webhooks/delivery-rows.ts';

type Row = Record<string, any>;

/**
 * The outbox on SQLite. Events and deliveries are written by the repositories in the transaction of
 * their change (sqlite-events.ts); this side claims, records and shows them. One writer at a time, so a claim is one UPDATE … RETURNING.
 */
export class SqliteOutboxRepository implements OutboxRepository {
  private readonly client: Database;

  constructor(private readonly db: SqliteDb) {
    this.client = (db as unknown as { $client: Database }).$client;
  }

  private all(query: string, ...params: unknown[]): Row[] {
    // .all(), never .get(), on writes: a pending statement would hold the WAL from checkpointing.
    return this.client.query(query).all(...(params as never[])) as Row[];
  }

  async claimDue(now: number, leaseMs: number, limit: number): Promise<DueDelivery[]> {
    return this.db.transaction(() => {
      const claimed = this.all(
        `UPDATE webhook_deliveries SET locked_until = ? WHERE id IN (
           SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? AND (locked_until IS NULL OR locked_until < ?)
           ORDER BY next_attempt_at LIMIT ?) RETURNING id`,
        now + leaseMs, now, now, limit,
      );
      if (claimed.length === 0) return [];
      const ids = claimed.map((r) => r.id as string);
      const rows = this.all(
        `SELECT d.id, d.endpoint_id, d.attempts, e.url, e.sealed_secret, ev.id AS event_id, ev.type, ev.data, ev.created_at
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled JOIN outgoing_events ev ON ev.id = d.event_id
         WHERE d.id IN (${ids.map(() => '?').join(',')})`,
        ...ids,
      );
      return rows.map((r) => ({
        id: r.id, endpointId: r.endpoint_id, url: r.url, sealedSecret: r.sealed_secret, attempts: r.attempts,
        event: { id: r.event_id, type: r.type, data: JSON.parse(r.data), createdAt: r.created_at },
      }));
    });
  }

  async recordAttempt(delivery: { id: string; endpointId: string }, attempt: Attempt, outcome: DeliveryOutcome, health: { disableAfterMs: number; disabledReason: string }): Promise<{ endpointDisabled: boolean }> {
    return this.db.transaction(() => {
      this.all(
        'INSERT INTO webhook_attempts (delivery_id, attempted_at, status, error, duration_ms) SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = ?) RETURNING id',
        delivery.id, attempt.at, attempt.status, attempt.error, attempt.durationMs, delivery.id,
      );
      this.all(
        `UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, next_attempt_at = coalesce(?, next_attempt_at), locked_until = NULL,
           last_attempt_at = ?, last_status = ?, last_error = ? WHERE id = ? AND status = 'pending' RETURNING id`,
        outcome.status, outcome.status === 'pending' ? outcome.nextAttemptAt : null, attempt.at, attempt.status, attempt.error, delivery.id,
      );
      if (outcome.status === 'succeeded') {
        this.all('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL RETURNING id', delivery.endpointId);
        return { endpointDisabled: false };
      }
      this.all('UPDATE webhook_endpoints SET failing_since = ? WHERE id = ? AND failing_since IS NULL RETURNING id', attempt.at, delivery.endpointId);
      const disabled = this.all(
        'UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, updated_at = ? WHERE id = ? AND enabled AND failing_since <= ? RETURNING id',
        health.disabledReason, attempt.at, delivery.endpointId, attempt.at - health.disableAfterMs,
      );
      if (disabled.length > 0) {
        this.all(`UPDATE webhook_deliveries SET status = 'failed', last_error = 'endpoint disabled', locked_until = NULL WHERE endpoint_id = ? AND status = 'pending' RETURNING id`, delivery.endpointId);
      }
      return { endpointDisabled: disabled.length > 0 };
    });
  }

  async depths(): Promise<{ pending: number; failed: number }> {
    const rows = this.all(`SELECT status, count(*) AS n FROM webhook_deliveries WHERE status IN ('pending', 'failed') GROUP BY status`);
    return { pending: 0, failed: 0, ...Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) };
  }

  async listDeliveries(developerId: string, endpointId: string, page: { limit: number; startingAfter?: string; status?: DeliveryStatus }): Promise<Page<DeliveryView>> {
    const cursor = page.startingAfter ? this.all('SELECT created_at, id FROM webhook_deliveries WHERE id = ? AND endpoint_id = ? AND developer_id = ?', page.startingAfter, endpointId, developerId)[0] : undefined;
    const rows = this.all(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d LEFT JOIN outgoing_events ev ON ev.id = d.event_id
       WHERE d.endpoint_id = ? AND d.developer_id = ? ${page.status ? 'AND d.status = ?' : ''} ${cursor ? 'AND (d.created_at < ? OR (d.created_at = ? AND d.id < ?))' : ''}
       ORDER BY d.created_at DESC, d.id DESC LIMIT ?`,
      endpointId, developerId, ...(page.status ? [page.status] : []), ...(cursor ? [cursor.created_at, cursor.created_at, cursor.id] : []), page.limit + 1,
    ) as DeliveryRow[];
    return { data: rows.slice(0, page.limit).map(deliveryView), hasMore: rows.length > page.limit };
  }

  async redeliverFailed(developerId: string, endpointId: string, range: { from: number; to: number }, now: number, limit: number): Promise<{ redelivered: number; hasMore: boolean }> {
    return this.db.transaction(() => {
      const taken = this.all(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, locked_until = NULL
         WHERE status = 'failed' AND id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = ? AND developer_id = ? AND status = 'failed' AND created_at >= ? AND created_at < ?
           ORDER BY created_at, id LIMIT ?) RETURNING id`,
        now, endpointId, developerId, range.from, range.to, limit,
      );
      const more = this.all(`SELECT 1 FROM webhook_deliveries WHERE endpoint_id = ? AND developer_id = ? AND status = 'failed' AND created_at >= ? AND created_at < ? LIMIT 1`, endpointId, developerId, range.from, range.to);
      return { redelivered: taken.length, hasMore: more.length > 0 };
    });
  }

  async getDelivery(developerId: string, id: string): Promise<(DeliveryView & { attemptLog: Attempt[] }) | null> {
    const row = this.all(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d LEFT JOIN outgoing_events ev ON ev.id = d.event_id WHERE d.id = ? AND d.developer_id = ?`, id, developerId)[0] as DeliveryRow | undefined;
    if (!row) return null;
    const attempts = this.all('SELECT attempted_at, status, error, duration_ms FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempted_at, id', id);
    return { ...deliveryView(row), attemptLog: attempts.map((a) => ({ at: a.attempted_at, status: a.status, error: a.error, durationMs: a.duration_ms })) };
  }

  async redeliver(developerId: string, id: string, now: number): Promise<DeliveryView | null> {
    const updated = this.all(`UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, locked_until = NULL WHERE id = ? AND developer_id = ? RETURNING id`, now, id, developerId);
    return updated.length === 0 ? null : (await this.getDelivery(developerId, id));
  }

  async listEvents(developerId: string, page: EventPage): Promise<Page<OutgoingEvent> | null> {
    const cursor = page.startingAfter ? this.all('SELECT created_at, id FROM outgoing_events WHERE id = ? AND developer_id = ?', page.startingAfter, developerId)[0] : undefined;
    if (page.startingAfter && !cursor) return null;
    // One license's: its (license, created, id) index, the seller checked on each row.
    const license = page.licenseId === undefined ? '' : 'AND license_id = ?';
    const rows = this.all(
      `SELECT id, type, data, created_at FROM outgoing_events WHERE developer_id = ? ${license} ${cursor ? 'AND (created_at < ? OR (created_at = ? AND id < ?))' : ''}
       ORDER BY created_at DESC, id DESC LIMIT ?`,
      developerId, ...(page.licenseId === undefined ? [] : [page.licenseId]), ...(cursor ? [cursor.created_at, cursor.created_at, cursor.id] : []), page.limit + 1,
    );
    const events = rows.map((r) => ({ id: r.id, type: r.type, data: JSON.parse(r.data), createdAt: r.created_at }));
    return { data: events.slice(0, page.limit), hasMore: events.length > page.limit };
  }

  async sendTest(developerId: string, endpointId: string, data: unknown): Promise<DeliveryView | null> {
    const id = this.db.transaction((tx) => {
      if (this.all('SELECT id FROM webhook_endpoints WHERE id = ? AND developer_id = ?', endpointId, developerId).length === 0) return null;
      // A test is for this endpoint only, whichever others take every event.
      const event = insertSqliteEvent(tx, { developerId, type: 'webhook.test', data });
      insertSqliteDeliveries(tx, event, developerId, [endpointId]);
      return this.all('SELECT id FROM webhook_deliveries WHERE event_id = ? AND endpoint_id = ?', event.id, endpointId)[0]!.id as string;
    });
    return id === null ? null : this.getDelivery(developerId, id);
  }

  async announceExpiries(now: number, limit: number): Promise<number> {
    // Revoked licenses are marked too (without an event), so none lingers in the partial index.
    return this.db.transaction((tx) => {
      const marked = this.all(
        `UPDATE licenses SET expiry_announced_at = ? WHERE id IN (
           SELECT id FROM licenses WHERE expiry_announced_at IS NULL AND expires_at IS NOT NULL AND expires_at <= ? LIMIT ?) RETURNING id`,
        now, now, limit,
      );
      for (const { id } of marked) {
        const license = licenseSubject(tx, id);
        if (license) emitSqliteEvent(tx, licenseExpired(license));
      }
      return marked.length;
    });
  }

  async announceTrialEndings(now: number, limit: number): Promise<number> {
    // Trials already over, revoked or converted are marked too (without an event): the partial index empties.
    return this.db.transaction((tx) => {
      const marked = this.all(
        `UPDATE licenses SET trial_ending_announced_at = ? WHERE id IN (
           SELECT id FROM licenses WHERE trial AND trial_ending_announced_at IS NULL AND expires_at IS NOT NULL AND expires_at <= ? LIMIT ?) RETURNING id`,
        now, now + TRIAL_ENDING_NOTICE_MS, limit,
      );
      for (const { id } of marked) {
        const license = licenseSubject(tx, id);
        if (license) emitSqliteEvent(tx, trialEnding(license, now));
      }
      return marked.length;
    });
  }

  async expireCheckouts(expiredBefore: number, limit: number): Promise<number> {
    return this.db.transaction((tx) => {
      const expired = this.all(
        `UPDATE checkout_sessions SET status = 'expired' WHERE id IN (
           SELECT id FROM checkout_sessions WHERE status = 'pending' AND expires_at <= ? AND license_id IS NULL LIMIT ?) RETURNING id`,
        expiredBefore, limit,
      );
      for (const { id } of expired) {
        const session = sessionOf(tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).get());
        if (session) emitSqliteEvent(tx, checkoutChanged({ storedStatus: 'pending' }, session));
      }
      return expired.length;
    });
  }

  async deleteOlderThan(before: number, limit: number): Promise<number> {
    return this.db.transaction(() => {
      const ids = this.all('SELECT id FROM outgoing_events WHERE created_at < ? ORDER BY created_at LIMIT ?', before, limit).map((r) => r.id as string);
      if (ids.length === 0) return 0;
      const list = ids.map(() => '?').join(',');
      this.all(`DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE event_id IN (${list})) RETURNING id`, ...ids);
      this.all(`DELETE FROM webhook_deliveries WHERE event_id IN (${list}) RETURNING id`, ...ids);
      return this.all(`DELETE FROM outgoing_events WHERE id IN (${list}) RETURNING id`, ...ids).length;
    });
  }
}
