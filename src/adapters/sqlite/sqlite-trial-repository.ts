import { eq } from 'drizzle-orm';
import type { Activation } from '../../domain/activation.ts';
import type { TrialClaimKind } from '../../domain/trial.ts';
import type { NewTrial, TrialOutcome, TrialRepository } from '../../ports/trial-repository.ts';
import { activations, customers, licenses, trialClaims } from './schema.ts';
import { activationCreated } from '../../domain/events.ts';
import { emitSqliteEvent, recordNewSqliteLicense, type SqliteWriter } from './sqlite-events.ts';
import type { SqliteDb } from './sqlite-store.ts';

/** Thrown inside the transaction to roll it back: the claim was someone else's. */
class ClaimTaken extends Error {
  constructor(readonly by: TrialClaimKind) {
    super(`trial already claimed by ${by}`);
  }
}

/**
 * A trial's customer, license, claims and first activation in one IMMEDIATE transaction: the write
 * lock is taken first, and the claims' primary key refuses a second trial for an e-mail or machine.
 */
export class SqliteTrialRepository implements TrialRepository {
  constructor(private readonly db: SqliteDb) {}

  async start(trial: NewTrial): Promise<TrialOutcome> {
    try {
      return this.db.transaction((tx) => this.write(tx, trial), { behavior: 'immediate' });
    } catch (error) {
      if (error instanceof ClaimTaken) return { kind: 'claimed', by: error.by };
      throw error;
    }
  }

  private write(tx: SqliteWriter, trial: NewTrial): TrialOutcome {
    tx.insert(customers).values(trial.customer).onConflictDoNothing({ target: customers.email }).run();
    const customer = tx.select({ id: customers.id }).from(customers).where(eq(customers.email, trial.customer.email)).get()!;
    const license = { ...trial.license, customerId: customer.id };
    const { storedStatus, machineFingerprint: _derived, ...row } = license;
    tx.insert(licenses).values({ ...row, status: storedStatus, keyHash: trial.keyHash, checkoutSessionId: null, purchaseId: null }).run();
    recordNewSqliteLicense(tx, license);
    const { productId, id: licenseId } = license;
    const claim = (kind: TrialClaimKind, value: string) => {
      const taken = tx.insert(trialClaims).values({ productId, kind, value, licenseId, createdAt: trial.machine.at }).onConflictDoNothing().returning({ kind: trialClaims.kind }).all();
      if (taken.length === 0) throw new ClaimTaken(kind);
    };
    claim('email', trial.customer.email);
    claim('machine', trial.machine.machineFingerprint);
    const { id, machineFingerprint, name, at } = trial.machine;
    const activation: Activation = { id, licenseId, machineFingerprint, name, createdAt: at, lastSeenAt: at };
    tx.insert(activations).values(activation).run();
    emitSqliteEvent(tx, activationCreated(activation, license));
    return { kind: 'started', license: { ...license, machineFingerprint }, activation };
  }
}
