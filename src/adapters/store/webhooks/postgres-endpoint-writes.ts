import { and, count, eq, sql } from 'drizzle-orm';
import type { WebhookEndpoint } from '../../../domain/webhook-endpoint.ts';
import type { EndpointChanges, WebhookEndpointRepository } from '../../../ports/webhook-endpoint-repository.ts';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../tables.ts';
import type { PostgresDb } from '../../postgres/postgres-store.ts';
import { linkPostgresClaim } from '../idempotency/idempotency-claim.ts';
import { postgresSqlStore } from '../sql-store.ts';
import { DrizzleWebhookEndpointRepository } from './endpoint-queries.ts';

/**
 * A JSON array as jsonb itself: given a value, drizzle over Bun's driver stores a jsonb *string*
 * holding the JSON text, which the fan-out's `events @> [type]` would never match.
 */
const jsonbOf = (events: string[] | null) => (events === null ? null : sql`${JSON.stringify(events)}::text::jsonb`);

export class PostgresWebhookEndpointRepository extends DrizzleWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(private readonly db: PostgresDb) {
    super(postgresSqlStore(db));
  }

  async create(endpoint: WebhookEndpoint, max: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // The seller's row is the lock: concurrent creations of one seller count one after the other.
      await tx.execute(sql`SELECT 1 FROM developers WHERE id = ${endpoint.developerId} FOR UPDATE`);
      const [row] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.developerId, endpoint.developerId));
      if ((row?.n ?? 0) >= max) return false;
      await tx.insert(webhookEndpoints).values({ ...endpoint, events: jsonbOf(endpoint.events) });
      await linkPostgresClaim(tx, 'webhook_endpoint', endpoint.id);
      return true;
    });
  }

  async update(developerId: string, id: string, changes: EndpointChanges): Promise<WebhookEndpoint | null> {
    return this.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(webhookEndpoints)
        .set(changes.events === undefined ? changes : { ...changes, events: jsonbOf(changes.events) })
        .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.developerId, developerId)))
        .returning();
      if (updated && !updated.enabled) {
        await tx
          .update(webhookDeliveries)
          .set({ status: 'failed', lastError: 'endpoint disabled', lockedUntil: null })
          .where(and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.status, 'pending')));
      }
      return updated ?? null;
    });
  }

  async delete(developerId: string, id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const deleted = await tx.delete(webhookEndpoints).where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.developerId, developerId))).returning({ id: webhookEndpoints.id });
      if (deleted.length === 0) return false;
      await tx.delete(webhookAttempts).where(sql`${webhookAttempts.deliveryId} IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = ${id})`);
      await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id));
      return true;
    });
  }
}
