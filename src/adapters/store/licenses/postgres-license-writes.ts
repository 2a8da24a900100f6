import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { licenseChanged, type LicenseSubject } from '../../../domain/events.ts';
import type { License } from '../../../domain/license.ts';
import { licenseMoves, licenseRollups } from '../../../domain/stats-rollups.ts';
import type { LicensePatch, LicenseReissue, LicenseRepository, LicenseState } from '../../../ports/license-repository.ts';
import type { OutboxMail } from '../../../ports/mail-repository.ts';
import { outboxMailRow } from '../messages/mail-queries.ts';
import { DrizzleLicenseRepository } from './license-queries.ts';
import { linkPostgresClaim } from '../idempotency/idempotency-claim.ts';
import { licenseRow, licenseStatementParts, originConflict, type LicenseOrigin, reissueGuard, reissueSet, stateOf, withoutEmail } from './license-rows.ts';
import { postgresSqlStore } from '../sql-store.ts';
import { outboxNow } from '../../webhooks/outbox-stamps.ts';
import { activationsJson, firstMachine, PostgresActivations } from '../activations/postgres-activations.ts';
import { addPostgresRollups, emitPostgresEvent, insertPostgresLicense, type PostgresTx } from '../events/postgres-events.ts';
import { isUniqueViolation, type PostgresDb } from '../../postgres/postgres-store.ts';
import { activations, customers, licenses, mailOutbox, retiredLicenseKeys } from '../tables.ts';

const { stateColumns, subjectColumns, licensePatch } = licenseStatementParts(licenses, customers, { activationsJson, firstMachine });

const ORIGIN_INDEXES = { checkoutSession: 'licenses_checkout_session', purchase: 'licenses_purchase' };
const conflictOf = (error: unknown) => originConflict(error, (e, of) => isUniqueViolation(e, ORIGIN_INDEXES[of]));

/** A license with its customer's e-mail, as its events carry it; `lock` takes the license row for the transaction. */
export async function licenseSubject(db: Pick<PostgresDb, 'select'>, id: string, lock = false): Promise<LicenseSubject | null> {
  const query = db.select(subjectColumns).from(licenses).innerJoin(customers, eq(customers.id, licenses.customerId)).where(eq(licenses.id, id));
  const [row] = lock ? await query.for('update', { of: licenses }) : await query;
  return row ?? null;
}

export class PostgresLicenseRepository extends DrizzleLicenseRepository implements LicenseRepository {
  // The validation hot path: built once (PostgreSQL prepares each statement once per connection).
  private readonly stateByHash;
  private readonly stateById;

  constructor(private readonly db: PostgresDb) {
    super(postgresSqlStore(db), new PostgresActivations(db));
    this.stateByHash = db.select(stateColumns).from(licenses).where(eq(licenses.keyHash, sql.placeholder('hash'))).prepare('license_state_by_hash');
    this.stateById = db.select(stateColumns).from(licenses).where(eq(licenses.id, sql.placeholder('id'))).prepare('license_state_by_id');
  }

  async create(license: License, keyHash: string, origin: LicenseOrigin = {}, mail?: OutboxMail): Promise<void> {
    try {
      await insertPostgresLicense(this.db, license, this.db.insert(licenses).values(licenseRow(license, keyHash, origin)).getSQL(), mail);
    } catch (error) {
      throw conflictOf(error) ?? error;
    }
  }

  async findStateByKeyHash(keyHash: string): Promise<LicenseState | null> {
    const [row] = await this.stateByHash.execute({ hash: keyHash });
    return stateOf(row);
  }

  async findStateById(id: string): Promise<LicenseState | null> {
    const [row] = await this.stateById.execute({ id });
    return stateOf(row);
  }

  update(id: string, patch: LicensePatch, expect?: LicensePatch): Promise<License | null> {
    return this.change(id, licensePatch.set(patch), licensePatch.where(expect));
  }

  async reissue(licenseId: string, change: LicenseReissue): Promise<License | null> {
    try {
      // The compare-and-swap: a concurrent reissue waits on the row lock, then matches no row.
      const cas = reissueGuard(licenses, change);
      return await this.change(licenseId, reissueSet(licenses, this.store.dialect, change), cas, async (tx) => {
        // Ed25519 is deterministic: unchanged claims give the same key, which then stays current.
        if (change.keyHash !== change.expectKeyHash) {
          await tx.insert(retiredLicenseKeys).values({ keyHash: change.expectKeyHash, licenseId, retiredAt: change.at }).onConflictDoNothing();
        }
        if (change.mail) await tx.insert(mailOutbox).values(outboxMailRow(change.mail));
        // A keyed purchase that converted (or took over) a trial names that license, as a new one would.
        if (change.convert || change.adopt) await linkPostgresClaim(tx, 'license', licenseId);
      });
    } catch (error) {
      throw conflictOf(error) ?? error;
    }
  }

  /**
   * One license's update where `condition` holds, and the event it announces, in one transaction
   * holding the license row; `also` writes what goes with it. The updated license, or null when none matched.
   */
  private change(id: string, set: PgUpdateSetSource<typeof licenses>, condition?: SQL, also?: (tx: PostgresTx) => Promise<void>): Promise<License | null> {
    return this.db.transaction(async (tx) => {
      const before = await licenseSubject(tx, id, true);
      if (!before) return null;
      const where = and(eq(licenses.id, id), condition);
      const empty = Object.keys(set).length === 0; // nothing to write: only the expectation to check
      const won = empty ? await tx.select({ id: licenses.id }).from(licenses).where(where) : await tx.update(licenses).set(set).where(where).returning({ id: licenses.id });
      if (won.length === 0) return null;
      await also?.(tx);
      const after = (await licenseSubject(tx, id))!;
      if (licenseMoves(before, after)) {
        // Activations of this license wait on its row lock: the count stands until the commit.
        const [{ n: machines }] = (await tx.select({ n: count() }).from(activations).where(eq(activations.licenseId, id))) as [{ n: number }];
        await addPostgresRollups(tx, licenseRollups({ ...before, machines }, { ...after, machines }));
      }
      await emitPostgresEvent(tx, licenseChanged(before, after, outboxNow()));
      return withoutEmail(after);
    });
  }
}
