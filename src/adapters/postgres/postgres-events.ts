import { eq, sql } from 'drizzle-orm';
import { licenseCreated, type DomainEvent } from '../../domain/events.ts';
import type { License } from '../../domain/license.ts';
import { listeningEndpoints } from '../drizzle/event-rows.ts';
import { deliveryRows, stampEvent, type WrittenEvent } from '../webhooks/outbox-stamps.ts';
import type { PostgresDb } from './postgres-store.ts';
import { customers, developerCustomers, outgoingEvents, webhookDeliveries, webhookEndpoints } from './schema.ts';

/** The transaction a change runs in (or the pool, for a single statement): events are written in the change's own. */
export type PostgresTx = Parameters<Parameters<PostgresDb['transaction']>[0]>[0];
export type PostgresWriter = PostgresDb | PostgresTx;

/** Writes the event row alone (see `emitPostgresEvent` for the deliveries). */
export async function insertPostgresEvent(tx: PostgresWriter, event: DomainEvent): Promise<WrittenEvent> {
  const written = stampEvent();
  // jsonb itself: given a value, drizzle over Bun's driver would store a jsonb string holding the JSON text.
  const data = sql`${JSON.stringify(event.data)}::text::jsonb`;
  await tx.insert(outgoingEvents).values({ ...written, developerId: event.developerId, type: event.type, data });
  return written;
}

/** One delivery of the event per endpoint, due at once. */
export async function insertPostgresDeliveries(tx: PostgresWriter, event: WrittenEvent, developerId: string, endpointIds: string[]): Promise<void> {
  if (endpointIds.length === 0) return;
  await tx.insert(webhookDeliveries).values(deliveryRows(event, developerId, endpointIds)).onConflictDoNothing();
}

/** Writes the event and one delivery to each enabled endpoint of its seller that takes its type; nothing for null. */
export async function emitPostgresEvent(tx: PostgresWriter, event: DomainEvent | null): Promise<void> {
  if (!event) return;
  const written = await insertPostgresEvent(tx, event);
  const listening = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(listeningEndpoints(webhookEndpoints, event.developerId, sql`${webhookEndpoints.events} @> jsonb_build_array(${event.type}::text)`));
  await insertPostgresDeliveries(tx, written, event.developerId, listening.map((e) => e.id));
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
