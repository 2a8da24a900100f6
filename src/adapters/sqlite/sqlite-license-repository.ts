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
import { customers, licenses } from './schema.ts';
import { activationsJson, firstMachine, SqliteActivations } from './sqlite-activations.ts';
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
      this.db.insert(licenses).values({ ...rest, status: storedStatus, keyHash, checkoutSessionId, purchaseId }).run();
    } catch (error) {
      if (isUniqueViolation(error, 'licenses.checkout_session_id')) {
        throw new ConflictError('conflict', 'This checkout session already has its license.');
      }
      if (isUniqueViolation(error, 'licenses.purchase_id')) {
        throw new ConflictError('conflict', 'This purchase already has its license.');
      }
      throw error;
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

  async setMaxMachines(id: string, maxMachines: number | null): Promise<void> {
    this.db.update(licenses).set({ maxMachines }).where(eq(licenses.id, id)).run();
  }

  async setStatus(id: string, status: StoredLicenseStatus): Promise<void> {
    this.db.update(licenses).set({ status }).where(eq(licenses.id, id)).run();
  }

  async listByDeveloper(developerId: string, query: LicenseListQuery): Promise<LicensePage> {
    const { after } = query;
    // With an e-mail, the plan starts at the customer (unique e-mail index, then licenses_customer).
    const rows = this.db
      .select({ ...licenseColumns, customerEmail: customers.email })
      .from(licenses)
      .innerJoin(customers, eq(customers.id, licenses.customerId))
      .where(
        and(
          eq(licenses.developerId, developerId),
          query.productId === undefined ? undefined : eq(licenses.productId, query.productId),
          query.customerEmail === undefined ? undefined : eq(customers.email, query.customerEmail),
          after ? or(lt(licenses.issuedAt, after.issuedAt), and(eq(licenses.issuedAt, after.issuedAt), lt(licenses.id, after.id))) : undefined,
        ),
      )
      .orderBy(desc(licenses.issuedAt), desc(licenses.id))
      .limit(query.limit + 1)
      .all();
    return { data: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
  }
}
