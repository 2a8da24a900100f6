import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core';
import { licenseChanged, type LicenseSubject } from '../../../domain/events.ts';
import type { License } from '../../../domain/license.ts';
import { licenseMoves, licenseRollups } from '../../../domain/stats-rollups.ts';
import type { LicensePatch, LicenseReissue, LicenseRepository, LicenseState } from '../../../ports/license-repository.ts';
import type { OutboxMail } from '../../../ports/mail-repository.ts';
import { outboxMailRow } from '../messages/mail-queries.ts';
import { DrizzleLicenseRepository } from './license-queries.ts';
import { licenseRow, licenseStatementParts, originConflict, type LicenseOrigin, reissueGuard, reissueSet, stateOf, withoutEmail } from './license-rows.ts';
import { sqliteSqlStore } from '../sql-store.ts';
import { linkSqliteClaim } from '../idempotency/idempotency-claim.ts';
import { outboxNow } from '../../webhooks/outbox-stamps.ts';
import { activations, customers, licenses, mailOutbox, retiredLicenseKeys } from '../../sqlite/schema.ts';
import { activationsJson, firstMachine, SqliteActivations } from '../activations/sqlite-activations.ts';
import { addSqliteRollups, emitSqliteEvent, recordNewSqliteLicense, type SqliteWriter } from '../events/sqlite-events.ts';
import { isUniqueViolation, type SqliteDb } from '../../sqlite/sqlite-store.ts';

const { stateColumns, subjectColumns, licensePatch } = licenseStatementParts(licenses, customers, { activationsJson, firstMachine });

const ORIGIN_COLUMNS = { checkoutSession: 'licenses.checkout_session_id', purchase: 'licenses.purchase_id' };
const conflictOf = (error: unknown) => originConflict(error, (e, of) => isUniqueViolation(e, ORIGIN_COLUMNS[of]));

/** A license with its customer's e-mail, as its events carry it. */
export function licenseSubject(db: Pick<SqliteDb, 'select'>, id: string): LicenseSubject | null {
  return db.select(subjectColumns).from(licenses).innerJoin(customers, eq(customers.id, licenses.customerId)).where(eq(licenses.id, id)).get() ?? null;
}

export class SqliteLicenseRepository extends DrizzleLicenseRepository implements LicenseRepository {
  // The validation hot path: prepared once (drizzle re-prepares unprepared queries on every call).
  private readonly stateByHash;
  private readonly stateById;

  constructor(private readonly db: SqliteDb) {
    super(sqliteSqlStore(db), new SqliteActivations(db));
    this.stateByHash = db.select(stateColumns).from(licenses).where(eq(licenses.keyHash, sql.placeholder('hash'))).prepare();
    this.stateById = db.select(stateColumns).from(licenses).where(eq(licenses.id, sql.placeholder('id'))).prepare();
  }

  async create(license: License, keyHash: string, origin: LicenseOrigin = {}, mail?: OutboxMail): Promise<void> {
    try {
      this.db.transaction((tx) => {
        tx.insert(licenses).values(licenseRow(license, keyHash, origin)).run();
        recordNewSqliteLicense(tx, license);
        if (mail) tx.insert(mailOutbox).values(outboxMailRow(mail)).run();
        linkSqliteClaim(tx, 'license', license.id);
      });
    } catch (error) {
      throw conflictOf(error) ?? error;
    }
  }

  async findStateByKeyHash(keyHash: string): Promise<LicenseState | null> {
    return stateOf(this.stateByHash.get({ hash: keyHash }));
  }

  async findStateById(id: string): Promise<LicenseState | null> {
    return stateOf(this.stateById.get({ id }));
  }

  async update(id: string, patch: LicensePatch, expect?: LicensePatch): Promise<License | null> {
    return this.change(id, licensePatch.set(patch), licensePatch.where(expect));
  }

  async reissue(licenseId: string, change: LicenseReissue): Promise<License | null> {
    try {
      // The compare-and-swap: only the holder of the current digest (a trial, to convert) wins.
      const cas = reissueGuard(licenses, change);
      return this.change(licenseId, reissueSet(licenses, this.store.dialect, change), cas, (tx) => {
        // Ed25519 is deterministic: unchanged claims give the same key, which then stays current.
        if (change.keyHash !== change.expectKeyHash) {
          tx.insert(retiredLicenseKeys).values({ keyHash: change.expectKeyHash, licenseId, retiredAt: change.at }).onConflictDoNothing().run();
        }
        if (change.mail) tx.insert(mailOutbox).values(outboxMailRow(change.mail)).run();
        // A keyed purchase that converted (or took over) a trial names that license, as a new one would.
        if (change.convert || change.adopt) linkSqliteClaim(tx, 'license', licenseId);
      });
    } catch (error) {
      throw conflictOf(error) ?? error;
    }
  }

  /**
   * One license's update where `condition` holds, and the event it announces, in one IMMEDIATE
   * transaction; `also` writes what goes with it. The updated license, or null when none matched.
   */
  private change(id: string, set: SQLiteUpdateSetSource<typeof licenses>, condition?: SQL, also?: (tx: SqliteWriter) => void): License | null {
    return this.db.transaction(
      (tx) => {
        const before = licenseSubject(tx, id);
        if (!before) return null;
        const where = and(eq(licenses.id, id), condition);
        const empty = Object.keys(set).length === 0; // nothing to write: only the expectation to check
        const won = empty ? tx.select({ id: licenses.id }).from(licenses).where(where).all() : tx.update(licenses).set(set).where(where).returning({ id: licenses.id }).all();
        if (won.length === 0) return null;
        also?.(tx);
        const after = licenseSubject(tx, id)!;
        if (licenseMoves(before, after)) {
          const machines = tx.select({ n: count() }).from(activations).where(eq(activations.licenseId, id)).all()[0]!.n;
          addSqliteRollups(tx, licenseRollups({ ...before, machines }, { ...after, machines }));
        }
        emitSqliteEvent(tx, licenseChanged(before, after, outboxNow()));
        return withoutEmail(after);
      },
      { behavior: 'immediate' },
    );
  }
}
