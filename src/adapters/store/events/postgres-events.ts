import { eq, sql, type SQL } from 'drizzle-orm';
import { eventLicenseId, licenseCreated, type DomainEvent } from '../../../domain/events.ts';
import type { License } from '../../../domain/license.ts';
import { licenseRollups, type RollupDelta } from '../../../domain/stats-rollups.ts';
import type { OutboxMail } from '../../../ports/mail-repository.ts';
import { outboxMailRow } from '../messages/mail-queries.ts';
import { listeningEndpoints } from './event-rows.ts';
import { rollupStatement } from '../stats/rollup-statements.ts';
import { POSTGRES_PARTS } from '../sql-store.ts';
import { claimLinkCte } from '../idempotency/idempotency-claim.ts';
import { stampEvent } from '../../webhooks/outbox-stamps.ts';
import type { PostgresDb } from '../../postgres/postgres-store.ts';
import { customers, developerCustomers, idempotencyKeys, mailOutbox, outgoingEvents, webhookDeliveries, webhookEndpoints } from '../tables.ts';

/** The transaction a change runs in (or the pool, for a single statement): events are written in the change's own. */
export type PostgresTx = Parameters<Parameters<PostgresDb['transaction']>[0]>[0];
export type PostgresWriter = PostgresDb | PostgresTx;

/** The console's rollups moved by a change, in the change's transaction (src/domain/stats-rollups.ts). */
export async function addPostgresRollups(tx: PostgresWriter, deltas: RollupDelta[]): Promise<void> {
  for (const delta of deltas) await tx.execute(rollupStatement(POSTGRES_PARTS, delta));
}

/**
 * The same as WITH entries of a change's statement (`rollup_0 AS (…), …`, each ending in a comma),
 * each adding once per row of the CTE `source`: nothing when the change wrote nothing.
 */
export function rollupCtes(deltas: RollupDelta[], source: string): SQL {
  return sql.join(deltas.map((delta, i) => sql`${sql.raw(`rollup_${i}`)} AS (${rollupStatement(POSTGRES_PARTS, delta, sql.raw(source))}),`));
}

/**
 * A change written in the same statement as the event it announces. `ctes` are its WITH entries
 * (data-modifying ones included); the last, `subject`, yields one row with the customer's `email`
 * when the change took effect and none otherwise. The event is written only with that row, its
 * payload's `customerEmail` (at `emailAt`) read from it: one round trip for the change, the e-mail
 * its event carries and the event, with no transaction around them.
 */
interface ChangeWithEvent {
  ctes: SQL;
  emailAt: 'license' | 'order';
}

/**
 * Writes the event and one delivery to each of its `recipients` (by default every enabled endpoint
 * of its seller that takes its type), in one statement: one round trip inside the change's
 * transaction. Nothing for null. The delivery ids are drawn by the database: `del_` and 96 bits, as
 * outboxId's. The event's id, or null when there was none.
 */
export async function emitPostgresEvent(tx: PostgresWriter, event: DomainEvent | null, recipients?: SQL): Promise<string | null> {
  if (!event) return null;
  const { id, statement } = eventStatement(event, { recipients });
  await tx.execute(statement);
  return id;
}

function eventStatement(event: DomainEvent, options: { recipients?: SQL; change?: ChangeWithEvent }): { id: string; statement: SQL } {
  const { id, createdAt } = stampEvent();
  const { developerId, type } = event;
  const e = webhookEndpoints;
  const listening = options.recipients ?? listeningEndpoints(e, developerId, sql`${e.events} @> jsonb_build_array(${type}::text)`);
  const data = sql`${JSON.stringify(event.data)}::text::jsonb`;
  const licenseId = eventLicenseId(event);
  const change = options.change;
  const statement = change
    ? sql`
    WITH ${change.ctes},
    written AS (
      INSERT INTO ${outgoingEvents} (id, developer_id, type, data, created_at, license_id)
      SELECT ${id}, ${developerId}, ${type}, jsonb_set(${data}, ${`{${change.emailAt},customerEmail}`}::text[], to_jsonb(subject.email)), ${createdAt}::bigint, ${licenseId}::text FROM subject
    )
    INSERT INTO ${webhookDeliveries} (id, event_id, endpoint_id, developer_id, status, attempts, next_attempt_at, created_at)
    SELECT 'del_' || substr(md5(gen_random_uuid()::text), 1, 24), ${id}, ${e.id}, ${developerId}, 'pending', 0, 0, ${createdAt}::bigint
    FROM ${e}, subject WHERE ${listening}
    ON CONFLICT DO NOTHING`
    : sql`
    WITH written AS (
      INSERT INTO ${outgoingEvents} (id, developer_id, type, data, created_at, license_id)
      VALUES (${id}, ${developerId}, ${type}, ${data}, ${createdAt}::bigint, ${licenseId}::text)
    )
    INSERT INTO ${webhookDeliveries} (id, event_id, endpoint_id, developer_id, status, attempts, next_attempt_at, created_at)
    SELECT 'del_' || substr(md5(gen_random_uuid()::text), 1, 24), ${id}, ${e.id}, ${developerId}, 'pending', 0, 0, ${createdAt}::bigint
    FROM ${e} WHERE ${listening}
    ON CONFLICT DO NOTHING`;
  return { id, statement };
}

/**
 * Writes `change` and the event it announces in one statement (see ChangeWithEvent); `event` is
 * built with an empty customerEmail, filled in by the statement.
 */
export async function changeWithPostgresEvent(tx: PostgresWriter, change: ChangeWithEvent, event: DomainEvent): Promise<void> {
  await tx.execute(eventStatement(event, { change }).statement);
}

/** The e-mail of a customer, for the events that carry it. */
export async function postgresCustomerEmail(tx: PostgresWriter, customerId: string): Promise<string | null> {
  const [row] = await tx.select({ email: customers.email }).from(customers).where(eq(customers.id, customerId));
  return row?.email ?? null;
}

/**
 * Inserts a new license (`insert`: its INSERT, RETURNING nothing), its customer in the seller's
 * customer list, license.created and its receipt (`mail`), in one statement: a refused license
 * (a taken origin) fails the whole statement, so the mail is queued exactly when the license is.
 */
export async function insertPostgresLicense(tx: PostgresWriter, license: License, insert: SQL, mail?: OutboxMail): Promise<void> {
  const { developerId, customerId, issuedAt } = license;
  const dc = developerCustomers;
  const mailed = mail ? sql`mailed AS (${tx.insert(mailOutbox).values(outboxMailRow(mail)).getSQL()}),` : sql``;
  const ctes = sql`
    inserted AS (${insert} RETURNING 1),
    ${rollupCtes(licenseRollups(null, { ...license, machines: 0 }), 'inserted')}
    ${mailed}
    ${claimLinkCte(idempotencyKeys, 'license', license.id, 'inserted')}
    subject AS (SELECT ${customers.email} AS email FROM ${customers}, inserted WHERE ${customers.id} = ${customerId}),
    listed AS (
      INSERT INTO ${dc} (developer_id, customer_id, email, first_seen_at)
      SELECT ${developerId}, ${customerId}, subject.email, ${issuedAt}::bigint FROM subject
      ON CONFLICT DO NOTHING
    )`;
  await changeWithPostgresEvent(tx, { ctes, emailAt: 'license' }, licenseCreated({ ...license, customerEmail: '' }));
}
