import { and, eq, sql } from 'drizzle-orm';
import type { WebhookEndpoint } from '../../../domain/webhook-endpoint.ts';
import type { EndpointChanges, WebhookEndpointRepository } from '../../../ports/webhook-endpoint-repository.ts';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../sqlite/schema.ts';
import type { Database } from 'bun:sqlite';
import type { SqliteDb } from '../../sqlite/sqlite-store.ts';
import { linkSqliteClaim } from '../idempotency/idempotency-claim.ts';
import { sqliteSqlStore } from '../sql-store.ts';
import { DrizzleWebhookEndpointRepository } from './endpoint-queries.ts';

export class SqliteWebhookEndpointRepository extends DrizzleWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(private readonly db: SqliteDb) {
    super(sqliteSqlStore(db));
  }

  async create(endpoint: WebhookEndpoint, max: number): Promise<boolean> {
    // One statement: SQLite has one writer, so the count and the insert cannot interleave with another's.
    // In a transaction with the link of the request's Idempotency-Key to it (the one connection runs both).
    return this.db.transaction((tx) => {
      const inserted = this.insertBelow(endpoint, max);
      if (inserted) linkSqliteClaim(tx, 'webhook_endpoint', endpoint.id);
      return inserted;
    });
  }

  private insertBelow(endpoint: WebhookEndpoint, max: number): boolean {
    const inserted = (this.db as unknown as { $client: Database }).$client
      .query(
        `INSERT INTO webhook_endpoints (id, developer_id, url, description, events, sealed_secret, enabled, disabled_reason, failing_since, created_at, updated_at)
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM webhook_endpoints WHERE developer_id = ?) < ? RETURNING id`,
      )
      .all(
        endpoint.id, endpoint.developerId, endpoint.url, endpoint.description, endpoint.events === null ? null : JSON.stringify(endpoint.events),
        endpoint.sealedSecret, endpoint.enabled ? 1 : 0, endpoint.disabledReason, endpoint.failingSince, endpoint.createdAt, endpoint.updatedAt,
        endpoint.developerId, max,
      );
    return inserted.length === 1;
  }

  async update(developerId: string, id: string, changes: EndpointChanges): Promise<WebhookEndpoint | null> {
    return this.db.transaction((tx) => {
      const updated = tx
        .update(webhookEndpoints)
        .set(changes)
        .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.developerId, developerId)))
        .returning()
        .all()[0];
      if (updated && !updated.enabled) {
        tx.update(webhookDeliveries)
          .set({ status: 'failed', lastError: 'endpoint disabled', lockedUntil: null })
          .where(and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.status, 'pending')))
          .run();
      }
      return updated ?? null;
    });
  }

  async delete(developerId: string, id: string): Promise<boolean> {
    return this.db.transaction((tx) => {
      const deleted = tx.delete(webhookEndpoints).where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.developerId, developerId))).returning({ id: webhookEndpoints.id }).all();
      if (deleted.length === 0) return false;
      tx.delete(webhookAttempts).where(sql`${webhookAttempts.deliveryId} IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = ${id})`).run();
      tx.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id)).run();
      return true;
    });
  }
}
