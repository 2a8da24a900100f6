import { eq, sql, type SQL } from 'drizzle-orm';
import { licenseCreated, type DomainEvent } from '../../domain/events.ts';
import type { License } from '../../domain/license.ts';
import { listeningEndpoints } from '../drizzle/event-rows.ts';
import { stampEvent } from '../webhooks/outbox-stamps.ts';
import type { PostgresDb } from './postgres-store.ts';
import { customers, developerCustomers, outgoingEvents, webhookDeliveries, webhookEndpoints } from './schema.ts';

/** The transaction a change runs in (or the pool, for a single statement): events are written in the change's own. */
export type PostgresTx = Parameters<Parameters<PostgresDb['transaction']>[0]>[0];
export type PostgresWriter = PostgresDb | PostgresTx;

/**
 * Writes the event and one delivery to each of its `recipients` (by default every enabled endpoint
 * of its seller that takes its type), in one statement: one round trip inside the change's
 * transaction. Nothing for null. The delivery ids are drawn by the database: `del_` and 96 bits, as
 * outboxId's. The event's id, or null when there was none.
 */
export async function emitPostgresEvent(tx: PostgresWriter, event: DomainEvent | null, recipients?: SQL): Promise<string | null> {
  if (!event) return null;
  const { id, createdAt } = stampEvent();
  const { developerId, type } = event;
  const e = webhookEndpoints;
  const listening = recipients ?? listeningEndpoints(e, developerId, sql`${e.events} @> jsonb_build_array(${type}::text)`);
  await tx.execute(sql`
    WITH written AS (
      INSERT INTO ${outgoingEvents} (id, developer_id, type, data, created_at)
      VALUES (${id}, ${developerId}, ${type}, ${JSON.stringify(event.data)}::text::jsonb, ${createdAt}::bigint)
    )
    INSERT INTO ${webhookDeliveries} (id, event_id, endpoint_id, developer_id, status, attempts, next_attempt_at, created_at)
    SELECT 'del_' || substr(md5(gen_random_uuid()::text), 1, 24), ${id}, ${e.id}, ${developerId}, 'pending', 0, 0, ${createdAt}::bigint
    FROM ${e} WHERE ${listening}
    ON CONFLICT DO NOTHING`);
  return id;
}

/** The e-mail of a customer, for the events that carry it. */
export async function postgresCustomerEmail(tx: PostgresWriter, customerId: string): Promise<string | null> {
  const [row] = await tx.select({ email: customers.email }).from(customers).where(eq(customers.id, customerId));
  return row?.email ?? null;
}

/** What a new license writes besides itself: its customer in the seller's customer list, and license.created. */
export async function recordNewPostgresLicense(tx: PostgresWriter, license: License): Promise<void> {
  const customerEmail = await postgresCustomerEmail(tx, license.customerId);
  if (customerEmail === null) return;
  const { developerId, customerId, issuedAt } = license;
  await tx.insert(developerCustomers).values({ developerId, customerId, email: customerEmail, firstSeenAt: issuedAt }).onConflictDoNothing();
  await emitPostgresEvent(tx, licenseCreated({ ...license, customerEmail }));
}
