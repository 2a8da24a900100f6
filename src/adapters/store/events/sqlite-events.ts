import { eq, sql } from 'drizzle-orm';
import { eventLicenseId, licenseCreated, type DomainEvent } from '../../../domain/events.ts';
import type { License } from '../../../domain/license.ts';
import { licenseRollups, type RollupDelta } from '../../../domain/stats-rollups.ts';
import { listeningEndpoints } from './event-rows.ts';
import { rollupStatement } from '../stats/rollup-statements.ts';
import { SQLITE_PARTS } from '../sql-store.ts';
import { deliveryRows, stampEvent, type WrittenEvent } from '../../webhooks/outbox-stamps.ts';
import { customers, developerCustomers, outgoingEvents, webhookDeliveries, webhookEndpoints } from '../../sqlite/schema.ts';
import type { SqliteDb } from '../../sqlite/sqlite-store.ts';

/** A database or the transaction a change runs in: events are written in the change's own. */
export type SqliteWriter = Pick<SqliteDb, 'insert' | 'select' | 'update' | 'delete' | 'run'>;

/** The console's rollups moved by a change, in the change's transaction (src/domain/stats-rollups.ts). */
export function addSqliteRollups(tx: SqliteWriter, deltas: RollupDelta[]): void {
  for (const delta of deltas) tx.run(rollupStatement(SQLITE_PARTS, delta));
}

/** Writes the event row alone (see `emitSqliteEvent` for the deliveries). */
export function insertSqliteEvent(tx: SqliteWriter, event: DomainEvent): WrittenEvent {
  const written = stampEvent();
  tx.insert(outgoingEvents).values({ ...written, developerId: event.developerId, type: event.type, data: event.data, licenseId: eventLicenseId(event) }).run();
  return written;
}

/** One delivery of the event per endpoint, due at once. */
export function insertSqliteDeliveries(tx: SqliteWriter, event: WrittenEvent, developerId: string, endpointIds: string[]): void {
  if (endpointIds.length === 0) return;
  tx.insert(webhookDeliveries).values(deliveryRows(event, developerId, endpointIds)).onConflictDoNothing().run();
}

/** Writes the event and one delivery to each enabled endpoint of its seller that takes its type; nothing for null. */
export function emitSqliteEvent(tx: SqliteWriter, event: DomainEvent | null): void {
  if (!event) return;
  const written = insertSqliteEvent(tx, event);
  const listening = tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(listeningEndpoints(webhookEndpoints, event.developerId, sql`EXISTS (SELECT 1 FROM json_each(${webhookEndpoints.events}) WHERE json_each.value = ${event.type})`))
    .all();
  insertSqliteDeliveries(tx, written, event.developerId, listening.map((e) => e.id));
}

/** The e-mail of a customer, for the events that carry it. */
export function sqliteCustomerEmail(tx: SqliteWriter, customerId: string): string | null {
  return tx.select({ email: customers.email }).from(customers).where(eq(customers.id, customerId)).get()?.email ?? null;
}

/** What a new license writes besides itself: its share of the rollups, its customer in the seller's customer list, and license.created. */
export function recordNewSqliteLicense(tx: SqliteWriter, license: License): void {
  addSqliteRollups(tx, licenseRollups(null, { ...license, machines: 0 }));
  const customerEmail = sqliteCustomerEmail(tx, license.customerId);
  if (customerEmail === null) return;
  const { developerId, customerId, issuedAt } = license;
  tx.insert(developerCustomers).values({ developerId, customerId, email: customerEmail, firstSeenAt: issuedAt }).onConflictDoNothing().run();
  emitSqliteEvent(tx, licenseCreated({ ...license, customerEmail }));
}
