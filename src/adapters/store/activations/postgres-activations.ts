import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { hasFreeSlot, movable, nextDeactivationAt, type Activation } from '../../../domain/activation.ts';
import type { License } from '../../../domain/license.ts';
import { machineRollups } from '../../../domain/stats-rollups.ts';
import { activationCreated, activationDeleted, type ActivationOwner } from '../../../domain/events.ts';
import type { ActivateOutcome, ActivationSelector, DeactivateOutcome, DeactivationQuota, NewActivation, SeenMachine } from '../../../ports/license-repository.ts';

/** Machines per statement of the batched lastSeenAt write (3 parameters each, far below 65,535). */
const TOUCH_CHUNK = 1_000;
import { activations, deactivations, licenses, trialClaims } from '../tables.ts';
import { addPostgresRollups, emitPostgresEvent } from '../events/postgres-events.ts';
import type { PostgresDb } from '../../postgres/postgres-store.ts';

/** The activations a state read carries, as JSON text from a correlated subquery: validation stays one read. */
export const activationsJson = sql<string>`(SELECT coalesce(json_agg(json_build_object('machineFingerprint', a.machine_fingerprint, 'lastSeenAt', a.last_seen_at)), '[]')::text FROM activations a WHERE a.license_id = "licenses"."id")`;
/** The oldest activation's machine: License.machineFingerprint, as the single binding read before activations. */
export const firstMachine = sql<string | null>`(SELECT a.machine_fingerprint FROM activations a WHERE a.license_id = "licenses"."id" ORDER BY a.created_at, a.id COLLATE "C" LIMIT 1)`;

type Tx = Parameters<Parameters<PostgresDb['transaction']>[0]>[0];

/** The license its activations' events name, with what the rollups file its machines under. */
type Owner = ActivationOwner & Pick<License, 'storedStatus' | 'expiresAt'>;
const ownerColumns = { developerId: licenses.developerId, productId: licenses.productId, customerId: licenses.customerId, storedStatus: licenses.status, expiresAt: licenses.expiresAt };

/** The license the activations belong to, its row locked: removals of one license happen one at a time. */
async function lockedOwner(tx: Tx, licenseId: string): Promise<Owner | undefined> {
  const [owner] = await tx.select(ownerColumns).from(licenses).where(eq(licenses.id, licenseId)).for('update');
  return owner;
}

const selectorOf = (licenseId: string, which: ActivationSelector) =>
  and(
    eq(activations.licenseId, licenseId),
    'activationId' in which ? eq(activations.id, which.activationId) : eq(activations.machineFingerprint, which.machineFingerprint),
  );

/**
 * One trial per machine and product: the primary key of trial_claims decides (a concurrent insert of
 * the same claim waits for the other transaction, then reads its row). True when the claim is this
 * license's (taken now, or already); false when another license holds it.
 */
async function claimTrialMachine(tx: Tx, productId: string, licenseId: string, input: NewActivation): Promise<boolean> {
  await tx.insert(trialClaims).values({ productId, kind: 'machine', value: input.machineFingerprint, licenseId, createdAt: input.at }).onConflictDoNothing();
  const [claim] = await tx
    .select({ licenseId: trialClaims.licenseId })
    .from(trialClaims)
    .where(and(eq(trialClaims.productId, productId), eq(trialClaims.kind, 'machine'), eq(trialClaims.value, input.machineFingerprint)));
  return claim?.licenseId === licenseId;
}

/**
 * Writes to activations, each in one transaction that first locks the license row (SELECT … FOR
 * UPDATE): concurrent activations of one license, from any instance, count and insert one at a time.
 */
export class PostgresActivations {
  constructor(private readonly db: PostgresDb) {}

  list(licenseId: string, db: PostgresDb | Tx = this.db): Promise<Activation[]> {
    return db
      .select()
      .from(activations)
      .where(eq(activations.licenseId, licenseId))
      .orderBy(asc(activations.createdAt), asc(sql`${activations.id} COLLATE "C"`));
  }

  activate(licenseId: string, input: NewActivation): Promise<ActivateOutcome> {
    return this.db.transaction(async (tx): Promise<ActivateOutcome> => {
      const [license] = await tx
        .select({ ...ownerColumns, maxMachines: licenses.maxMachines, trial: licenses.trial })
        .from(licenses)
        .where(eq(licenses.id, licenseId))
        .for('update');
      if (!license) return { kind: 'missing' };
      const held = await this.list(licenseId, tx);
      const known = held.find((a) => a.machineFingerprint === input.machineFingerprint);
      if (known) return { kind: 'existing', activation: known };
      const legacy = movable(held, input);
      if (legacy) {
        await tx.update(activations).set({ machineFingerprint: input.machineFingerprint }).where(eq(activations.id, legacy.id));
        return { kind: 'existing', activation: { ...legacy, machineFingerprint: input.machineFingerprint } };
      }
      if (!hasFreeSlot(held.length, license.maxMachines)) return { kind: 'full', maxMachines: license.maxMachines, activations: held };
      if (license.trial && !(await claimTrialMachine(tx, license.productId, licenseId, input))) return { kind: 'trial_used' };
      const activation: Activation = { id: input.id, licenseId, machineFingerprint: input.machineFingerprint, name: input.name, createdAt: input.at, lastSeenAt: input.at };
      await tx.insert(activations).values(activation);
      await addPostgresRollups(tx, machineRollups(license, 1));
      await emitPostgresEvent(tx, activationCreated(activation, license));
      return { kind: 'created', activation };
    });
  }

  async touchSeen(licenseId: string, machineFingerprint: string, at: number): Promise<void> {
    await this.db
      .update(activations)
      .set({ lastSeenAt: at })
      .where(and(selectorOf(licenseId, { machineFingerprint }), sql`${activations.lastSeenAt} < ${at}`));
  }

  /** One UPDATE … FROM (VALUES …) per 1,000 machines: one round trip each instead of one per machine. */
  async touchSeenMany(seen: readonly SeenMachine[]): Promise<void> {
    for (let i = 0; i < seen.length; i += TOUCH_CHUNK) {
      const rows = seen.slice(i, i + TOUCH_CHUNK).map((s) => sql`(${s.licenseId}, ${s.machineFingerprint}, ${s.at}::bigint)`);
      await this.db.execute(sql`UPDATE ${activations} SET last_seen_at = v.at
        FROM (VALUES ${sql.join(rows, sql`, `)}) AS v(license_id, machine_fingerprint, at)
        WHERE ${activations.licenseId} = v.license_id AND ${activations.machineFingerprint} = v.machine_fingerprint AND ${activations.lastSeenAt} < v.at`);
    }
  }

  deactivate(licenseId: string, which: ActivationSelector, quota?: DeactivationQuota): Promise<DeactivateOutcome> {
    return this.db.transaction(async (tx): Promise<DeactivateOutcome> => {
      // The license row lock serializes removals, so the quota's count and the removal are one step.
      const owner = await lockedOwner(tx, licenseId);
      const [found] = await tx.select().from(activations).where(selectorOf(licenseId, which));
      if (!found) return { kind: 'missing' };
      if (quota) {
        const past = await tx
          .select({ at: deactivations.removedAt })
          .from(deactivations)
          .where(and(eq(deactivations.licenseId, licenseId), gt(deactivations.removedAt, quota.now - quota.windowMs)));
        const retryAt = nextDeactivationAt(past.map((row) => row.at), quota.limit, quota.now, quota.windowMs);
        if (retryAt !== null) return { kind: 'quota_exhausted', retryAt };
        await tx.insert(deactivations).values({ activationId: found.id, licenseId, removedAt: quota.now });
      }
      await tx.delete(activations).where(eq(activations.id, found.id));
      if (owner) await addPostgresRollups(tx, machineRollups(owner, -1));
      if (owner) await emitPostgresEvent(tx, activationDeleted(found, owner));
      return { kind: 'removed', activation: found };
    });
  }

  async removeAll(licenseId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const owner = await lockedOwner(tx, licenseId);
      const removed = await tx.delete(activations).where(eq(activations.licenseId, licenseId)).returning();
      if (owner) await addPostgresRollups(tx, machineRollups(owner, -removed.length));
      if (owner) for (const activation of removed) await emitPostgresEvent(tx, activationDeleted(activation, owner));
    });
  }
}
