import { and, asc, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { Activation } from '../../domain/activation.ts';
import { ConflictError } from '../../domain/errors.ts';
import type { License, StoredLicenseStatus } from '../../domain/license.ts';
import type {
  ActivateOutcome,
  ActivationSelector,
  DeactivateOutcome,
  DeactivationQuota,
  LicenseListQuery,
  LicensePage,
  LicenseRepository,
  LicenseState,
  NewActivation,
} from '../../ports/license-repository.ts';
import { activationsJson, firstMachine, PostgresActivations } from './postgres-activations.ts';
import { customers, licenses } from './schema.ts';
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

function stateOf(row: (Omit<LicenseState, 'activations'> & { activations: string }) | undefined): LicenseState | null {
  return row ? { ...row, activations: JSON.parse(row.activations) } : null;
}

const licenseColumns = {
  id: licenses.id,
  developerId: licenses.developerId,
  productId: licenses.productId,
  customerId: licenses.customerId,
  storedStatus: licenses.status,
  features: licenses.features,
  issuedAt: licenses.issuedAt,
  expiresAt: licenses.expiresAt,
  machineFingerprint: firstMachine,
  maxMachines: licenses.maxMachines,
  licenseKey: licenses.licenseKey,
  trial: licenses.trial,
  subscriptionId: licenses.subscriptionId,
};

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
      await this.db.insert(licenses).values({ ...rest, status: storedStatus, keyHash, checkoutSessionId, purchaseId });
    } catch (error) {
      if (isUniqueViolation(error, 'licenses_checkout_session')) {
        throw new ConflictError('conflict', 'This checkout session already has its license.');
      }
      if (isUniqueViolation(error, 'licenses_purchase')) {
        throw new ConflictError('conflict', 'This purchase already has its license.');
      }
      throw error;
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

  async setMaxMachines(id: string, maxMachines: number | null): Promise<void> {
    await this.db.update(licenses).set({ maxMachines }).where(eq(licenses.id, id));
  }

  async setStatus(id: string, status: StoredLicenseStatus): Promise<void> {
    await this.db.update(licenses).set({ status }).where(eq(licenses.id, id));
  }

  async listByDeveloper(developerId: string, query: LicenseListQuery): Promise<LicensePage> {
    const { after } = query;
    // Ids compare byte-wise (COLLATE "C"), as in SQLite and the memory store, so pages agree everywhere.
    const id = sql`${licenses.id} COLLATE "C"`;
    const rows = await this.db
      .select({ ...licenseColumns, customerEmail: customers.email })
      .from(licenses)
      .innerJoin(customers, eq(customers.id, licenses.customerId))
      .where(
        and(
          eq(licenses.developerId, developerId),
          query.productId === undefined ? undefined : eq(licenses.productId, query.productId),
          query.customerEmail === undefined ? undefined : eq(customers.email, query.customerEmail),
          after ? or(lt(licenses.issuedAt, after.issuedAt), and(eq(licenses.issuedAt, after.issuedAt), sql`${id} < ${after.id}`)) : undefined,
        ),
      )
      .orderBy(desc(licenses.issuedAt), desc(id))
      .limit(query.limit + 1);
    return { data: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
  }
}
