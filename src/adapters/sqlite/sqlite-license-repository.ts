import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core';
import type { Activation } from '../../domain/activation.ts';
import { ConflictError } from '../../domain/errors.ts';
import { licenseChanged, type LicenseSubject } from '../../domain/events.ts';
import type { License } from '../../domain/license.ts';
import type {
  ActivateOutcome,
  ActivationSelector,
  DeactivateOutcome,
  DeactivationQuota,
  LicenseListQuery,
  LicensePage,
  LicensePatch,
  LicenseReissue,
  LicenseRepository,
  LicenseState,
  NewActivation,
} from '../../ports/license-repository.ts';
import { columnPatch } from '../column-patch.ts';
import { outboxNow } from '../webhooks/outbox-stamps.ts';
import { licenses, retiredLicenseKeys } from './schema.ts';
import { activationsJson, SqliteActivations } from './sqlite-activations.ts';
import { emitSqliteEvent, recordNewSqliteLicense, type SqliteWriter } from './sqlite-events.ts';
import { licenseColumns, licenseSubject as subjectOf, listSqliteLicenses } from './sqlite-license-list.ts';
import { isUniqueViolation, type SqliteDb } from './sqlite-store.ts';

type Origin = { checkoutSessionId?: string; purchaseId?: string };

const stateColumns = {
  id: licenses.id,
  developerId: licenses.developerId,
  storedStatus: licenses.status,
  features: licenses.features,
  expiresAt: licenses.expiresAt,
  maxMachines: licenses.maxMachines,
  activations: activationsJson,
};

const licensePatch = columnPatch(licenses, { storedStatus: 'status' });

const withoutEmail = ({ customerEmail: _e, ...license }: LicenseSubject): License => license;

/** The columns a reissue writes: the key, the term, and what a conversion or a subscription brings. */
function reissueSet(change: LicenseReissue) {
  const { licenseKey, keyHash, expiresAt, features, convert, subscriptionId } = change;
  return {
    licenseKey,
    keyHash,
    expiresAt,
    features,
    // The expiry announcement belongs to one expiresAt: a new one may expire (and be announced) again.
    expiryAnnouncedAt: sql<number | null>`CASE WHEN ${licenses.expiresAt} IS ${expiresAt} THEN ${licenses.expiryAnnouncedAt} END`,
    ...(convert ? { trial: false, ...convert } : {}),
    ...(subscriptionId === undefined ? {} : { subscriptionId }),
  };
}

function originConflict(error: unknown): ConflictError | null {
  if (isUniqueViolation(error, 'licenses.checkout_session_id')) return new ConflictError('conflict', 'This checkout session already has its license.');
  if (isUniqueViolation(error, 'licenses.purchase_id')) return new ConflictError('conflict', 'This purchase already has its license.');
  return null;
}

function stateOf(row: (Omit<LicenseState, 'activations'> & { activations: string }) | undefined): LicenseState | null {
  return row ? { ...row, activations: JSON.parse(row.activations) } : null;
}

export class SqliteLicenseRepository implements LicenseRepository {
  // The validation hot path: prepared once (drizzle re-prepares unprepared queries on every call).
  private readonly stateByHash;
  private readonly stateById;
  private readonly machines: SqliteActivations;

  constructor(private readonly db: SqliteDb) {
    this.stateByHash = db.select(stateColumns).from(licenses).where(eq(licenses.keyHash, sql.placeholder('hash'))).prepare();
    this.stateById = db.select(stateColumns).from(licenses).where(eq(licenses.id, sql.placeholder('id'))).prepare();
    this.machines = new SqliteActivations(db);
  }

  async create(license: License, keyHash: string, origin: Origin = {}): Promise<void> {
    // machineFingerprint is derived from activations: a new license has none.
    const { storedStatus, machineFingerprint: _derived, ...rest } = license;
    const checkoutSessionId = origin.checkoutSessionId ?? null;
    const purchaseId = origin.purchaseId ?? null;
    try {
      this.db.transaction((tx) => {
        tx.insert(licenses).values({ ...rest, status: storedStatus, keyHash, checkoutSessionId, purchaseId }).run();
        recordNewSqliteLicense(tx, license);
      });
    } catch (error) {
      throw originConflict(error) ?? error;
    }
  }

  async findByCheckoutSession(checkoutSessionId: string): Promise<License | null> {
    return this.db.select(licenseColumns).from(licenses).where(eq(licenses.checkoutSessionId, checkoutSessionId)).get() ?? null;
  }

  async findByPurchase(purchaseId: string): Promise<License | null> {
    return this.db.select(licenseColumns).from(licenses).where(eq(licenses.purchaseId, purchaseId)).get() ?? null;
  }

  async listByCustomer(customerId: string): Promise<License[]> {
    return this.db
      .select(licenseColumns)
      .from(licenses)
      .where(eq(licenses.customerId, customerId))
      .orderBy(asc(licenses.issuedAt), asc(licenses.id))
      .all();
  }

  async findById(id: string): Promise<License | null> {
    return this.db.select(licenseColumns).from(licenses).where(eq(licenses.id, id)).get() ?? null;
  }

  async findStateByKeyHash(keyHash: string): Promise<LicenseState | null> {
    return stateOf(this.stateByHash.get({ hash: keyHash }));
  }

  async findStateById(id: string): Promise<LicenseState | null> {
    return stateOf(this.stateById.get({ id }));
  }

  async activate(licenseId: string, activation: NewActivation): Promise<ActivateOutcome> {
    return this.machines.activate(licenseId, activation);
  }

  async listActivations(licenseId: string): Promise<Activation[]> {
    return this.machines.list(licenseId);
  }

  async touchActivation(licenseId: string, machineFingerprint: string, at: number): Promise<void> {
    this.machines.touchSeen(licenseId, machineFingerprint, at);
  }

  async deactivate(licenseId: string, which: ActivationSelector, quota?: DeactivationQuota): Promise<DeactivateOutcome> {
    return this.machines.deactivate(licenseId, which, quota);
  }

  async unbind(id: string): Promise<void> {
    this.machines.removeAll(id);
  }

  async update(id: string, patch: LicensePatch, expect?: LicensePatch): Promise<License | null> {
    return this.change(id, licensePatch.set(patch), licensePatch.where(expect));
  }

  async reissue(licenseId: string, change: LicenseReissue): Promise<License | null> {
    try {
      // The compare-and-swap: only the holder of the current digest (a trial, to convert) wins.
      const cas = and(eq(licenses.keyHash, change.expectKeyHash), change.convert ? eq(licenses.trial, true) : undefined);
      return this.change(licenseId, reissueSet(change), cas, (tx) => {
        // Ed25519 is deterministic: unchanged claims give the same key, which then stays current.
        if (change.keyHash !== change.expectKeyHash) {
          tx.insert(retiredLicenseKeys).values({ keyHash: change.expectKeyHash, licenseId, retiredAt: change.at }).onConflictDoNothing().run();
        }
      });
    } catch (error) {
      throw originConflict(error) ?? error;
    }
  }

  /**
   * One license's update where `condition` holds, and the event it announces, in one IMMEDIATE
   * transaction; `also` writes what goes with it. The updated license, or null when none matched.
   */
  private change(id: string, set: SQLiteUpdateSetSource<typeof licenses>, condition?: SQL, also?: (tx: SqliteWriter) => void): License | null {
    return this.db.transaction(
      (tx) => {
        const before = subjectOf(tx, id);
        if (!before) return null;
        const where = and(eq(licenses.id, id), condition);
        const empty = Object.keys(set).length === 0; // nothing to write: only the expectation to check
        const won = empty ? tx.select({ id: licenses.id }).from(licenses).where(where).all() : tx.update(licenses).set(set).where(where).returning({ id: licenses.id }).all();
        if (won.length === 0) return null;
        also?.(tx);
        const after = subjectOf(tx, id)!;
        emitSqliteEvent(tx, licenseChanged(before, after, outboxNow()));
        return withoutEmail(after);
      },
      { behavior: 'immediate' },
    );
  }

  async listByDeveloper(developerId: string, query: LicenseListQuery): Promise<LicensePage> {
    return listSqliteLicenses(this.db, developerId, query);
  }
}
