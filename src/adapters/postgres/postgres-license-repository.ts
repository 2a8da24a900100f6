import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
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
import { activationsJson, PostgresActivations } from './postgres-activations.ts';
import { emitPostgresEvent, recordNewPostgresLicense, type PostgresTx } from './postgres-events.ts';
import { licenses, retiredLicenseKeys } from './schema.ts';
import { licenseColumns, licenseSubject, listPostgresLicenses } from './postgres-license-list.ts';
import { isUniqueViolation, type PostgresDb } from './postgres-store.ts';

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

/** The columns a reissue writes: the key, the term, and what a conversion or a subscription brings. */
function reissueSet(change: LicenseReissue) {
  const { licenseKey, keyHash, expiresAt, features, convert, subscriptionId } = change;
  return {
    licenseKey,
    keyHash,
    expiresAt,
    features,
    // The expiry announcement belongs to one expiresAt: a new one may expire (and be announced) again.
    expiryAnnouncedAt: sql<number | null>`CASE WHEN ${licenses.expiresAt} IS NOT DISTINCT FROM ${expiresAt} THEN ${licenses.expiryAnnouncedAt} END`,
    ...(convert ? { trial: false, ...convert } : {}),
    ...(subscriptionId === undefined ? {} : { subscriptionId }),
  };
}

function originConflict(error: unknown): ConflictError | null {
  if (isUniqueViolation(error, 'licenses_checkout_session')) return new ConflictError('conflict', 'This checkout session already has its license.');
  if (isUniqueViolation(error, 'licenses_purchase')) return new ConflictError('conflict', 'This purchase already has its license.');
  return null;
}

const licensePatch = columnPatch(licenses, { storedStatus: 'status' });

const withoutEmail = ({ customerEmail: _e, ...license }: LicenseSubject): License => license;

function stateOf(row: (Omit<LicenseState, 'activations'> & { activations: string }) | undefined): LicenseState | null {
  return row ? { ...row, activations: JSON.parse(row.activations) } : null;
}

export class PostgresLicenseRepository implements LicenseRepository {
  // The validation hot path: built once (PostgreSQL prepares each statement once per connection).
  private readonly stateByHash;
  private readonly stateById;
  private readonly machines: PostgresActivations;

  constructor(private readonly db: PostgresDb) {
    this.stateByHash = db.select(stateColumns).from(licenses).where(eq(licenses.keyHash, sql.placeholder('hash'))).prepare('license_state_by_hash');
    this.stateById = db.select(stateColumns).from(licenses).where(eq(licenses.id, sql.placeholder('id'))).prepare('license_state_by_id');
    this.machines = new PostgresActivations(db);
  }

  async create(license: License, keyHash: string, origin: Origin = {}): Promise<void> {
    // machineFingerprint is derived from activations: a new license has none.
    const { storedStatus, machineFingerprint: _derived, ...rest } = license;
    const checkoutSessionId = origin.checkoutSessionId ?? null;
    const purchaseId = origin.purchaseId ?? null;
    try {
      await this.db.transaction(async (tx) => {
        await tx.insert(licenses).values({ ...rest, status: storedStatus, keyHash, checkoutSessionId, purchaseId });
        await recordNewPostgresLicense(tx, license);
      });
    } catch (error) {
      throw originConflict(error) ?? error;
    }
  }

  async findByCheckoutSession(checkoutSessionId: string): Promise<License | null> {
    const [row] = await this.db.select(licenseColumns).from(licenses).where(eq(licenses.checkoutSessionId, checkoutSessionId));
    return row ?? null;
  }

  async findByPurchase(purchaseId: string): Promise<License | null> {
    const [row] = await this.db.select(licenseColumns).from(licenses).where(eq(licenses.purchaseId, purchaseId));
    return row ?? null;
  }

  async listByCustomer(customerId: string): Promise<License[]> {
    return this.db
      .select(licenseColumns)
      .from(licenses)
      .where(eq(licenses.customerId, customerId))
      .orderBy(asc(licenses.issuedAt), asc(sql`${licenses.id} COLLATE "C"`));
  }

  async findById(id: string): Promise<License | null> {
    const [row] = await this.db.select(licenseColumns).from(licenses).where(eq(licenses.id, id));
    return row ?? null;
  }

  async findStateByKeyHash(keyHash: string): Promise<LicenseState | null> {
    const [row] = await this.stateByHash.execute({ hash: keyHash });
    return stateOf(row);
  }

  async findStateById(id: string): Promise<LicenseState | null> {
    const [row] = await this.stateById.execute({ id });
    return stateOf(row);
  }

  activate(licenseId: string, activation: NewActivation): Promise<ActivateOutcome> {
    return this.machines.activate(licenseId, activation);
  }

  listActivations(licenseId: string): Promise<Activation[]> {
    return this.machines.list(licenseId);
  }

  touchActivation(licenseId: string, machineFingerprint: string, at: number): Promise<void> {
    return this.machines.touchSeen(licenseId, machineFingerprint, at);
  }

  deactivate(licenseId: string, which: ActivationSelector, quota?: DeactivationQuota): Promise<DeactivateOutcome> {
    return this.machines.deactivate(licenseId, which, quota);
  }

  unbind(id: string): Promise<void> {
    return this.machines.removeAll(id);
  }

  update(id: string, patch: LicensePatch, expect?: LicensePatch): Promise<License | null> {
    return this.change(id, licensePatch.set(patch), licensePatch.where(expect));
  }

  async reissue(licenseId: string, change: LicenseReissue): Promise<License | null> {
    try {
      // The compare-and-swap: a concurrent reissue waits on the row lock, then matches no row.
      const cas = and(eq(licenses.keyHash, change.expectKeyHash), change.convert ? eq(licenses.trial, true) : undefined);
      return await this.change(licenseId, reissueSet(change), cas, async (tx) => {
        // Ed25519 is deterministic: unchanged claims give the same key, which then stays current.
        if (change.keyHash !== change.expectKeyHash) {
          await tx.insert(retiredLicenseKeys).values({ keyHash: change.expectKeyHash, licenseId, retiredAt: change.at }).onConflictDoNothing();
        }
      });
    } catch (error) {
      throw originConflict(error) ?? error;
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
      await emitPostgresEvent(tx, licenseChanged(before, after, outboxNow()));
      return withoutEmail(after);
    });
  }

  async listByDeveloper(developerId: string, query: LicenseListQuery): Promise<LicensePage> {
    return listPostgresLicenses(this.db, developerId, query);
  }
}
