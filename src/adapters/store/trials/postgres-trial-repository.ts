import { eq } from 'drizzle-orm';
import { machineRollups } from '../../../domain/stats-rollups.ts';
import { activationCreated } from '../../../domain/events.ts';
import type { TrialClaimKind } from '../../../domain/trial.ts';
import type { NewTrial, TrialOutcome, TrialRepository } from '../../../ports/trial-repository.ts';
import { licenseRow } from '../licenses/license-rows.ts';
import { ClaimTaken, firstActivation, startOrClaimed } from './trial-rows.ts';
import { activations, customers, licenses, trialClaims } from '../tables.ts';
import { addPostgresRollups, emitPostgresEvent, insertPostgresLicense } from '../events/postgres-events.ts';
import type { PostgresDb } from '../../postgres/postgres-store.ts';

type Tx = Parameters<Parameters<PostgresDb['transaction']>[0]>[0];

/**
 * A trial's customer, license, claims and first activation in one transaction. The claims' primary
 * key decides: a concurrent insert of the same claim waits for the first transaction and, once it
 * commits, inserts nothing, so this one rolls back. Rows are always taken in the same order
 * (customer, license, e-mail claim, machine claim), so concurrent starts cannot deadlock.
 */
export class PostgresTrialRepository implements TrialRepository {
  constructor(private readonly db: PostgresDb) {}

  async start(trial: NewTrial): Promise<TrialOutcome> {
    return startOrClaimed(() => this.db.transaction((tx) => this.write(tx, trial)));
  }

  private async write(tx: Tx, trial: NewTrial): Promise<TrialOutcome> {
    await tx.insert(customers).values(trial.customer).onConflictDoNothing({ target: customers.email });
    const [customer] = await tx.select({ id: customers.id }).from(customers).where(eq(customers.email, trial.customer.email));
    const license = { ...trial.license, customerId: customer!.id };
    await insertPostgresLicense(tx, license, tx.insert(licenses).values(licenseRow(license, trial.keyHash)).getSQL(), trial.mail);
    const { productId, id: licenseId } = license;
    const claim = async (kind: TrialClaimKind, value: string) => {
      const taken = await tx.insert(trialClaims).values({ productId, kind, value, licenseId, createdAt: trial.machine.at }).onConflictDoNothing().returning({ kind: trialClaims.kind });
      if (taken.length === 0) throw new ClaimTaken(kind);
    };
    await claim('email', trial.customer.email);
    await claim('machine', trial.machine.machineFingerprint);
    const activation = firstActivation(trial, licenseId);
    await tx.insert(activations).values(activation);
    await addPostgresRollups(tx, machineRollups(license, 1));
    await emitPostgresEvent(tx, activationCreated(activation, license));
    return { kind: 'started', license: { ...license, machineFingerprint: activation.machineFingerprint }, activation };
  }
}
