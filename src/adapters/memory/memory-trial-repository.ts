import type { TrialClaimKind } from '../../domain/trial.ts';
import type { NewTrial, TrialOutcome, TrialRepository } from '../../ports/trial-repository.ts';
import type { MemoryCustomerRepository } from './memory-customer-repository.ts';
import type { MemoryLicenseRepository } from './memory-license-repository.ts';
import type { MemoryTables } from './memory-tables.ts';

/** trial_claims of one memory store: "product\nkind\nvalue" → license id. Kept beside its tables, not in them. */
const claimsByStore = new WeakMap<MemoryTables, Map<string, string>>();

export function trialClaimsOf(tables: MemoryTables): Map<string, string> {
  let claims = claimsByStore.get(tables);
  if (!claims) claimsByStore.set(tables, (claims = new Map()));
  return claims;
}

export const claimKey = (productId: string, kind: TrialClaimKind, value: string): string => `${productId}\n${kind}\n${value}`;

/**
 * The memory store's trial start. The claims are checked and taken with no await in between (its
 * equivalent of the primary key), before the customer, license and activation are written; a failed
 * write gives them back.
 */
export class MemoryTrialRepository implements TrialRepository {
  constructor(
    private readonly tables: MemoryTables,
    private readonly customers: MemoryCustomerRepository,
    private readonly licenses: MemoryLicenseRepository,
  ) {}

  async start(trial: NewTrial): Promise<TrialOutcome> {
    const claims = trialClaimsOf(this.tables);
    const { productId, id: licenseId } = trial.license;
    const email = claimKey(productId, 'email', trial.customer.email);
    const machine = claimKey(productId, 'machine', trial.machine.machineFingerprint);
    if (claims.has(email)) return { kind: 'claimed', by: 'email' };
    if (claims.has(machine)) return { kind: 'claimed', by: 'machine' };
    claims.set(email, licenseId).set(machine, licenseId);
    try {
      const customer = await this.customers.findOrCreate(trial.customer);
      const license = { ...trial.license, customerId: customer.id };
      await this.licenses.create(license, trial.keyHash);
      const outcome = await this.licenses.activate(licenseId, trial.machine);
      if (outcome.kind !== 'created') throw new Error(`A new trial license could not take its first machine (${outcome.kind}).`);
      return { kind: 'started', license: { ...license, machineFingerprint: outcome.activation.machineFingerprint }, activation: outcome.activation };
    } catch (error) {
      claims.delete(email);
      claims.delete(machine);
      throw error;
    }
  }
}
