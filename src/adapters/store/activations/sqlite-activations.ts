import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { hasFreeSlot, movable, nextDeactivationAt, type Activation } from '../../../domain/activation.ts';
import { activationCreated, activationDeleted, type ActivationOwner } from '../../../domain/events.ts';
import type { License } from '../../../domain/license.ts';
import { machineRollups } from '../../../domain/stats-rollups.ts';
import type { ActivateOutcome, ActivationSelector, DeactivateOutcome, DeactivationQuota, NewActivation, SeenMachine } from '../../../ports/license-repository.ts';
import { activations, deactivations, licenses, trialClaims } from '../../sqlite/schema.ts';
import { addSqliteRollups, emitSqliteEvent, type SqliteWriter } from '../events/sqlite-events.ts';
import type { SqliteDb } from '../../sqlite/sqlite-store.ts';

/** The license its activations' events name, with what the rollups file its machines under. */
type Owner = ActivationOwner & Pick<License, 'storedStatus' | 'expiresAt'>;
const ownerColumns = { developerId: licenses.developerId, productId: licenses.productId, customerId: licenses.customerId, storedStatus: licenses.status, expiresAt: licenses.expiresAt };
const ownerOf = (tx: SqliteWriter, licenseId: string): Owner | undefined => tx.select(ownerColumns).from(licenses).where(eq(licenses.id, licenseId)).get();

/** The activations a state read carries: one JSON array from a correlated subquery, so validation stays one read. */
export const activationsJson = sql<string>`(SELECT json_group_array(json_object('machineFingerprint', a.machine_fingerprint, 'lastSeenAt', a.last_seen_at)) FROM activations a WHERE a.license_id = "licenses"."id")`;
/** The oldest activation's machine: License.machineFingerprint, as the single binding read before activations. */
export const firstMachine = sql<string | null>`(SELECT a.machine_fingerprint FROM activations a WHERE a.license_id = "licenses"."id" ORDER BY a.created_at, a.id LIMIT 1)`;

const selectorOf = (licenseId: string, which: ActivationSelector) =>
  and(
    eq(activations.licenseId, licenseId),
    'activationId' in which ? eq(activations.id, which.activationId) : eq(activations.machineFingerprint, which.machineFingerprint),
  );

/**
 * One trial per machine and product: the primary key of trial_claims decides. True when the claim is
 * this license's (taken now, or already); false when another license holds it.
 */
function claimTrialMachine(tx: Pick<SqliteDb, 'insert' | 'select'>, productId: string, licenseId: string, input: NewActivation): boolean {
  tx.insert(trialClaims).values({ productId, kind: 'machine', value: input.machineFingerprint, licenseId, createdAt: input.at }).onConflictDoNothing().run();
  const claim = tx
    .select({ licenseId: trialClaims.licenseId })
    .from(trialClaims)
    .where(and(eq(trialClaims.productId, productId), eq(trialClaims.kind, 'machine'), eq(trialClaims.value, input.machineFingerprint)))
    .get();
  return claim?.licenseId === licenseId;
}

/**
 * Writes to activations, each in one IMMEDIATE transaction: the write lock is taken before the
 * count is read, so another connection (thread, process) cannot fill the slot in between.
 */
export class SqliteActivations {
  private readonly touch;

  constructor(private readonly db: SqliteDb) {
    this.touch = db
      .update(activations)
      .set({ lastSeenAt: sql`${sql.placeholder('at')}` })
      .where(and(eq(activations.licenseId, sql.placeholder('id')), eq(activations.machineFingerprint, sql.placeholder('fp')), sql`${activations.lastSeenAt} < ${sql.placeholder('at')}`))
      .prepare();
  }

  list(licenseId: string, db: Pick<SqliteDb, 'select'> = this.db): Activation[] {
    return db.select().from(activations).where(eq(activations.licenseId, licenseId)).orderBy(asc(activations.createdAt), asc(activations.id)).all();
  }

  activate(licenseId: string, input: NewActivation): ActivateOutcome {
    return this.db.transaction(
      (tx) => {
        const license = tx.select({ ...ownerColumns, maxMachines: licenses.maxMachines, trial: licenses.trial }).from(licenses).where(eq(licenses.id, licenseId)).get();
        if (!license) return { kind: 'missing' } as const;
        const held = this.list(licenseId, tx);
        const known = held.find((a) => a.machineFingerprint === input.machineFingerprint);
        if (known) return { kind: 'existing', activation: known } as const;
        const legacy = movable(held, input);
        if (legacy) {
          tx.update(activations).set({ machineFingerprint: input.machineFingerprint }).where(eq(activations.id, legacy.id)).run();
          return { kind: 'existing', activation: { ...legacy, machineFingerprint: input.machineFingerprint } } as const;
        }
        if (!hasFreeSlot(held.length, license.maxMachines)) return { kind: 'full', maxMachines: license.maxMachines, activations: held } as const;
        if (license.trial && !claimTrialMachine(tx, license.productId, licenseId, input)) return { kind: 'trial_used' } as const;
        const activation: Activation = { id: input.id, licenseId, machineFingerprint: input.machineFingerprint, name: input.name, createdAt: input.at, lastSeenAt: input.at };
        tx.insert(activations).values(activation).run();
        addSqliteRollups(tx, machineRollups(license, 1));
        emitSqliteEvent(tx, activationCreated(activation, license));
        return { kind: 'created', activation } as const;
      },
      { behavior: 'immediate' },
    );
  }

  touchSeen(licenseId: string, machineFingerprint: string, at: number): void {
    this.touch.run({ id: licenseId, fp: machineFingerprint, at });
  }

  /** One transaction for the whole batch: one commit instead of one per machine. */
  touchSeenMany(seen: readonly SeenMachine[]): void {
    this.db.transaction(() => {
      for (const s of seen) this.touch.run({ id: s.licenseId, fp: s.machineFingerprint, at: s.at });
    }, { behavior: 'immediate' });
  }

  deactivate(licenseId: string, which: ActivationSelector, quota?: DeactivationQuota): DeactivateOutcome {
    return this.db.transaction(
      (tx) => {
        const found = tx.select().from(activations).where(selectorOf(licenseId, which)).get();
        if (!found) return { kind: 'missing' } as const;
        if (quota) {
          const past = tx
            .select({ at: deactivations.removedAt })
            .from(deactivations)
            .where(and(eq(deactivations.licenseId, licenseId), gt(deactivations.removedAt, quota.now - quota.windowMs)))
            .all();
          const retryAt = nextDeactivationAt(past.map((row) => row.at), quota.limit, quota.now, quota.windowMs);
          if (retryAt !== null) return { kind: 'quota_exhausted', retryAt } as const;
          tx.insert(deactivations).values({ activationId: found.id, licenseId, removedAt: quota.now }).run();
        }
        tx.delete(activations).where(eq(activations.id, found.id)).run();
        const owner = ownerOf(tx, licenseId);
        if (owner) addSqliteRollups(tx, machineRollups(owner, -1));
        if (owner) emitSqliteEvent(tx, activationDeleted(found, owner));
        return { kind: 'removed', activation: found } as const;
      },
      { behavior: 'immediate' },
    );
  }

  removeAll(licenseId: string): void {
    this.db.transaction((tx) => {
      const removed = tx.delete(activations).where(eq(activations.licenseId, licenseId)).returning().all();
      const owner = ownerOf(tx, licenseId);
      if (owner) addSqliteRollups(tx, machineRollups(owner, -removed.length));
      if (owner) for (const activation of removed) emitSqliteEvent(tx, activationDeleted(activation, owner));
    });
  }
}
