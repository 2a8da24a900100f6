import { eq } from 'drizzle-orm';
import { activationCreated } from '../../../domain/events.ts';
import { machineRollups } from '../../../domain/stats-rollups.ts';
import type { TrialClaimKind } from '../../../domain/trial.ts';
import type { NewTrial, TrialOutcome, TrialRepository } from '../../../ports/trial-repository.ts';
import { licenseRow } from '../licenses/license-rows.ts';
import { ClaimTaken, firstActivation, startOrClaimed } from './trial-rows.ts';
import { outboxMailRow } from '../messages/mail-queries.ts';
import { linkSqliteClaim } from '../idempotency/idempotency-claim.ts';
import { activations, customers, licenses, mailOutbox, trialClaims } from '../../sqlite/schema.ts';
import { addSqliteRollups, emitSqliteEvent, recordNewSqliteLicense, type SqliteWriter } from '../events/sqlite-events.ts';
import type { SqliteDb } from '../../sqlite/sqlite-store.ts';

/**
 * A trial's customer, license, claims and first activation in one IMMEDIATE transaction: the write
 * lock is taken first, and the claims' primary key refuses a second trial for an e-mail or machine.
 */
export class SqliteTrialRepository implements TrialRepository {
  constructor(private readonly db: SqliteDb) {}

  async start(trial: NewTrial): Promise<TrialOutcome> {
    return startOrClaimed(() => this.db.transaction((tx) => this.write(tx, trial), { behavior: 'immediate' }));
  }

  private write(tx: SqliteWriter, trial: NewTrial): TrialOutcome {
    tx.insert(customers).values(trial.customer).onConflictDoNothing({ target: customers.email }).run();
    const customer = tx.select({ id: customers.id }).from(customers).where(eq(customers.email, trial.customer.email)).get()!;
    const license = { ...trial.license, customerId: customer.id };
    tx.insert(licenses).values(licenseRow(license, trial.keyHash)).run();
    recordNewSqliteLicense(tx, license);
    const { productId, id: licenseId } = license;
    const claim = (kind: TrialClaimKind, value: string) => {
      const taken = tx.insert(trialClaims).values({ productId, kind, value, licenseId, createdAt: trial.machine.at }).onConflictDoNothing().returning({ kind: trialClaims.kind }).all();
      if (taken.length === 0) throw new ClaimTaken(kind);
    };
    claim('email', trial.customer.email);
    claim('machine', trial.machine.machineFingerprint);
    const activation = firstActivation(trial, licenseId);
    tx.insert(activations).values(activation).run();
    addSqliteRollups(tx, machineRollups(license, 1));
    emitSqliteEvent(tx, activationCreated(activation, license));
    if (trial.mail) tx.insert(mailOutbox).values(outboxMailRow(trial.mail)).run();
    // A keyed POST /trials or /trials/confirm names its trial (PostgreSQL: with the license's insert).
    linkSqliteClaim(tx, 'license', licenseId);
    return { kind: 'started', license: { ...license, machineFingerprint: activation.machineFingerprint }, activation };
  }
}
