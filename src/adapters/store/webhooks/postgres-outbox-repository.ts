import type { SQL } from 'bun';
import type { Attempt, DeliveryOutcome, DeliveryStatus, DeliveryView, DueDelivery, EventPage, OutboxRepository, OutgoingEvent, Page } from '../../../ports/outbox-repository.ts';
import { deliveryView, DELIVERY_COLUMNS, type DeliveryRow } from '../../webhooks/delivery-rows.ts';
import { and, eq, inArray, isNotNull, isNull, lte } from 'drizzle-orm';
import { checkoutChanged, licenseExpired, TRIAL_ENDING_NOTICE_MS, trialEnding } from '../../../domain/events.ts';
import { sessionOf } from '../checkouts/checkout-queries.ts';
import { emitPostgresEvent } from '../events/postgres-events.ts';
import { licenseSubject } from '../licenses/postgres-license-writes.ts';
import type { PostgresDb } from '../../postgres/postgres-store.ts';
import { checkoutSessions, licenses, webhookDeliveries, webhookEndpoints } from '../tables.ts';

type Row = Record<string, any>;
type Runner = { unsafe(query: string, params?: unknown[]): Promise<unknown> };

const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
const run = async (on: Runner, query: string, ...params: unknown[]): Promise<Row[]> => [...((await on.unsafe(query, params)) as Row[])];

/**
 * The outbox on PostgreSQL (events and deliveries written by the repositories in the transaction of
 * their change: postgres-events.ts). Claims
 * use FOR UPDATE SKIP LOCKED, so instances polling together each take different deliveries.
 */
export class PostgresOutboxRepository implements OutboxRepository {
  private readonly sql: SQL;

  constructor(private readonly db: PostgresDb) {
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

  async recordAttempt(delivery: { id: string; endpointId: string }, attempt: Attempt, outcome: DeliveryOutcome, health: { disableAfterMs: number; disabledReason: string }): Promise<{ endpointDisabled: boolean }> {
    return await this.sql.begin(async (tx) => {
      await run(tx, 'INSERT INTO webhook_attempts (delivery_id, attempted_at, status, error, duration_ms) SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = $1)',
        delivery.id, attempt.at, attempt.status, attempt.error, attempt.durationMs);
      await run(tx, `UPDATE webhook_deliveries SET status = $1, attempts = attempts + 1, next_attempt_at = coalesce($2, next_attempt_at), locked_until = NULL,
          last_attempt_at = $3, last_status = $4, last_error = $5 WHERE id = $6 AND status = 'pending'`,
        outcome.status, outcome.status === 'pending' ? outcome.nextAttemptAt : null, attempt.at, attempt.status, attempt.error, delivery.id);
      if (outcome.status === 'succeeded') {
        await run(tx, 'UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL', delivery.endpointId);
        return { endpointDisabled: false };
      }
      await run(tx, 'UPDATE webhook_endpoints SET failing_since = $1 WHERE id = $2 AND failing_since IS NULL', attempt.at, delivery.endpointId);
      const disabled = await run(tx, 'UPDATE webhook_endpoints SET enabled = false, disabled_reason = $1, updated_at = $2 WHERE id = $3 AND enabled AND failing_since <= $4 RETURNING id',
        health.disabledReason, attempt.at, delivery.endpointId, attempt.at - health.disableAfterMs);
      if (disabled.length > 0) {
        await run(tx, `UPDATE webhook_deliveries SET status = 'failed', last_error = 'endpoint disabled', locked_until = NULL WHERE endpoint_id = $1 AND status = 'pending'`, delivery.endpointId);
      }
      return { endpointDisabled: disabled.length > 0 };
    });
  }

  async depths(): Promise<{ pending: number; failed: number }> {
    const rows = await run(this.sql, `SELECT status, count(*) AS n FROM webhook_deliveries WHERE status IN ('pending', 'failed') GROUP BY status`);
    return { pending: 0, failed: 0, ...Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) };
  }

  async listDeliveries(developerId: string, endpointId: string, page: { limit: number; startingAfter?: string; status?: DeliveryStatus }): Promise<Page<DeliveryView>> {
    const [cursor] = page.startingAfter ? await run(this.sql, 'SELECT created_at, id FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2 AND developer_id = $3', page.startingAfter, endpointId, developerId) : [];
    const rows = (await run(
      this.sql,
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d LEFT JOIN outgoing_events ev ON ev.id = d.event_id
       WHERE d.endpoint_id = $1 AND d.developer_id = $2 ${cursor ? 'AND (d.created_at, d.id COLLATE "C") < ($4, $5 COLLATE "C")' : ''} ${page.status ? `AND d.status = $${cursor ? 6 : 4}` : ''}
       ORDER BY d.created_at DESC, d.id COLLATE "C" DESC LIMIT $3`,
      endpointId, developerId, page.limit + 1, ...(cursor ? [cursor.created_at, cursor.id] : []), ...(page.status ? [page.status] : []),
    )) as DeliveryRow[];
    return { data: rows.slice(0, page.limit).map(deliveryView), hasMore: rows.length > page.limit };
  }

  async redeliverFailed(developerId: string, endpointId: string, range: { from: number; to: number }, now: number, limit: number): Promise<{ redelivered: number; hasMore: boolean }> {
    // The outer status test is checked again on a row another call changed meanwhile: each is taken once.
    const taken = await run(this.sql,
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $1, locked_until = NULL
       WHERE status = 'failed' AND id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = $2 AND developer_id = $3 AND status = 'failed' AND created_at >= $4 AND created_at < $5
         ORDER BY created_at, id COLLATE "C" LIMIT $6) RETURNING id`,
      now, endpointId, developerId, range.from, range.to, limit);
    const more = await run(this.sql, `SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1 AND developer_id = $2 AND status = 'failed' AND created_at >= $3 AND created_at < $4 LIMIT 1`, endpointId, developerId, range.from, range.to);
    return { redelivered: taken.length, hasMore: more.length > 0 };
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

  async listEvents(developerId: string, page: EventPage): Promise<Page<OutgoingEvent> | null> {
    const [cursor] = page.startingAfter ? await run(this.sql, 'SELECT created_at, id FROM outgoing_events WHERE id = $1 AND developer_id = $2', page.startingAfter, developerId) : [];
    if (page.startingAfter && !cursor) return null;
    // One license's: its (license, created, id) index, the seller checked on each row.
    const params: unknown[] = [developerId, page.limit + 1];
    const license = page.licenseId === undefined ? '' : `AND license_id = $${params.push(page.licenseId)}`;
    const after = cursor ? `AND (created_at, id COLLATE "C") < ($${params.push(cursor.created_at)}, $${params.push(cursor.id)} COLLATE "C")` : '';
    const rows = await run(
      this.sql,
      `SELECT id, type, data, created_at FROM outgoing_events WHERE developer_id = $1 ${license} ${after}
       ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT $2`,
      ...params,
    );
    const events = rows.map((r) => ({ id: r.id, type: r.type, data: json(r.data), createdAt: Number(r.created_at) }));
    return { data: events.slice(0, page.limit), hasMore: events.length > page.limit };
  }

  async sendTest(developerId: string, endpointId: string, data: unknown): Promise<DeliveryView | null> {
    const id = await this.db.transaction(async (tx) => {
      const [endpoint] = await tx.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.developerId, developerId)));
      if (!endpoint) return null;
      // A test is for this endpoint only, whichever others take every event.
      const eventId = await emitPostgresEvent(tx, { developerId, type: 'webhook.test', data }, eq(webhookEndpoints.id, endpointId));
      const [delivery] = await tx.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(and(eq(webhookDeliveries.eventId, eventId!), eq(webhookDeliveries.endpointId, endpointId)));
      return delivery!.id;
    });
    return id === null ? null : this.getDelivery(developerId, id);
  }

  async announceExpiries(now: number, limit: number): Promise<number> {
    // Revoked licenses are marked too (without an event), so none lingers in the partial index.
    return this.db.transaction(async (tx) => {
      const due = tx
        .select({ id: licenses.id })
        .from(licenses)
        .where(and(isNull(licenses.expiryAnnouncedAt), isNotNull(licenses.expiresAt), lte(licenses.expiresAt, now)))
        .limit(limit)
        .for('update', { skipLocked: true });
      const marked = await tx.update(licenses).set({ expiryAnnouncedAt: now }).where(inArray(licenses.id, due)).returning({ id: licenses.id });
      for (const { id } of marked) {
        const license = await licenseSubject(tx, id);
        if (license) await emitPostgresEvent(tx, licenseExpired(license));
      }
      return marked.length;
    });
  }

  async announceTrialEndings(now: number, limit: number): Promise<number> {
    // Trials already over, revoked or converted are marked too (without an event): the partial index
    // empties. Concurrent sweeps skip each other's rows, and the outer test is checked again on a row
    // another sweep marked meanwhile: each is announced once.
    return this.db.transaction(async (tx) => {
      const unannounced = and(eq(licenses.trial, true), isNull(licenses.trialEndingAnnouncedAt), isNotNull(licenses.expiresAt));
      const due = tx
        .select({ id: licenses.id })
        .from(licenses)
        .where(and(unannounced, lte(licenses.expiresAt, now + TRIAL_ENDING_NOTICE_MS)))
        .limit(limit)
        .for('update', { skipLocked: true });
      const marked = await tx.update(licenses).set({ trialEndingAnnouncedAt: now }).where(and(inArray(licenses.id, due), isNull(licenses.trialEndingAnnouncedAt))).returning({ id: licenses.id });
      for (const { id } of marked) {
        const license = await licenseSubject(tx, id);
        if (license) await emitPostgresEvent(tx, trialEnding(license, now));
      }
      return marked.length;
    });
  }

  async expireCheckouts(expiredBefore: number, limit: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      const due = tx
        .select({ id: checkoutSessions.id })
        .from(checkoutSessions)
        .where(and(eq(checkoutSessions.status, 'pending'), lte(checkoutSessions.expiresAt, expiredBefore), isNull(checkoutSessions.licenseId)))
        .limit(limit)
        .for('update', { skipLocked: true });
      const expired = await tx
        .update(checkoutSessions)
        .set({ status: 'expired' })
        .where(and(inArray(checkoutSessions.id, due), eq(checkoutSessions.status, 'pending')))
        .returning();
      for (const row of expired) await emitPostgresEvent(tx, checkoutChanged({ storedStatus: 'pending' }, sessionOf(row)!));
      return expired.length;
    });
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
