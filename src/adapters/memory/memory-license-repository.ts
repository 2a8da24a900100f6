import { ConflictError } from '../../domain/errors.ts';
import type { License } from '../../domain/license.ts';
import type { Activation } from '../../domain/activation.ts';
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
import { listMemoryLicenses } from './memory-license-list.ts';
import { activateIn, deactivateIn } from './memory-activations.ts';
import { trialClaimsOf } from './memory-trial-repository.ts';
import { copy, type LicenseRow, type MemoryTables, requireRow, requireUnique } from './memory-tables.ts';

/** Oldest first, ties by id: the order SQL's ORDER BY created_at, id gives. */
function oldestActivationsFirst(row: LicenseRow): Activation[] {
  return row.activations
    .map((a) => ({ ...a }))
    .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function stateOf(row: LicenseRow): LicenseState {
  return {
    id: row.id,
    developerId: row.developerId,
    storedStatus: row.storedStatus,
    features: [...row.features],
    expiresAt: row.expiresAt,
    maxMachines: row.maxMachines,
    activations: row.activations.map(({ machineFingerprint, lastSeenAt }) => ({ machineFingerprint, lastSeenAt })),
  };
}

type Position = Pick<LicenseRow, 'issuedAt' | 'id'>;

/** Oldest first; ties by id, as SQLite's ORDER BY issued_at, id. */
const oldestFirst = (a: Position, b: Position): number => a.issuedAt - b.issuedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function licenseOf(row: LicenseRow | undefined): License | null {
  if (!row) return null;
  const { keyHash: _hash, checkoutSessionId: _session, purchaseId: _purchase, activations: _a, deactivatedAt: _d, ...license } = copy(row);
  return { ...license, machineFingerprint: oldestActivationsFirst(row)[0]?.machineFingerprint ?? null };
}

export class MemoryLicenseRepository implements LicenseRepository {
  private readonly byKeyHash = new Map<string, LicenseRow>();
  private readonly byCheckoutSession = new Map<string, LicenseRow>();
  private readonly byPurchase = new Map<string, LicenseRow>();
  /** Retired key digest → license id (the store's retired_license_keys). */
  private readonly retired = new Map<string, string>();

  constructor(private readonly tables: MemoryTables) {}

  async create(license: License, keyHash: string, origin: { checkoutSessionId?: string; purchaseId?: string } = {}): Promise<void> {
    const t = this.tables;
    const checkoutSessionId = origin.checkoutSessionId ?? null;
    const purchaseId = origin.purchaseId ?? null;
    // Every check before the first write, and no await in between: one license per checkout session or purchase.
    requireUnique(t.licenses.has(license.id), 'licenses.id');
    requireUnique(this.byKeyHash.has(keyHash), 'licenses.key_hash');
    if (checkoutSessionId !== null && this.byCheckoutSession.has(checkoutSessionId)) {
      throw new ConflictError('conflict', 'This checkout session already has its license.');
    }
    if (purchaseId !== null && this.byPurchase.has(purchaseId)) {
      throw new ConflictError('conflict', 'This purchase already has its license.');
    }
    requireRow(t.developers, license.developerId, 'licenses.developer_id');
    requireRow(t.products, license.productId, 'licenses.product_id');
    requireRow(t.customers, license.customerId, 'licenses.customer_id');
    if (purchaseId !== null) requireRow(t.purchases, purchaseId, 'licenses.purchase_id');
    const { machineFingerprint: _derived, ...stored } = copy(license);
    const row: LicenseRow = { ...stored, keyHash, checkoutSessionId, purchaseId, activations: [], deactivatedAt: [] };
    t.licenses.set(row.id, row);
    this.byKeyHash.set(keyHash, row);
    if (checkoutSessionId !== null) this.byCheckoutSession.set(checkoutSessionId, row);
    if (purchaseId !== null) this.byPurchase.set(purchaseId, row);
  }

  async findByCheckoutSession(checkoutSessionId: string): Promise<License | null> {
    return licenseOf(this.byCheckoutSession.get(checkoutSessionId));
  }

  async findByPurchase(purchaseId: string): Promise<License | null> {
    return licenseOf(this.byPurchase.get(purchaseId));
  }

  async listByCustomer(customerId: string): Promise<License[]> {
    return [...this.tables.licenses.values()]
      .filter((row) => row.customerId === customerId)
      .sort(oldestFirst)
      .map((row) => licenseOf(row)!);
  }

  async findById(id: string): Promise<License | null> {
    return licenseOf(this.tables.licenses.get(id));
  }

  async findStateByKeyHash(keyHash: string): Promise<LicenseState | null> {
    const row = this.byKeyHash.get(keyHash);
    return row ? stateOf(row) : null;
  }

  async findStateById(id: string): Promise<LicenseState | null> {
    const row = this.tables.licenses.get(id);
    return row ? stateOf(row) : null;
  }

  async activate(licenseId: string, activation: NewActivation): Promise<ActivateOutcome> {
    return activateIn(this.tables.licenses.get(licenseId), activation, trialClaimsOf(this.tables));
  }

  async listActivations(licenseId: string): Promise<Activation[]> {
    const row = this.tables.licenses.get(licenseId);
    return row ? oldestActivationsFirst(row) : [];
  }

  async touchActivation(licenseId: string, machineFingerprint: string, at: number): Promise<void> {
    const found = this.tables.licenses.get(licenseId)?.activations.find((a) => a.machineFingerprint === machineFingerprint);
    if (found && found.lastSeenAt < at) found.lastSeenAt = at;
  }

  async deactivate(licenseId: string, which: ActivationSelector, quota?: DeactivationQuota): Promise<DeactivateOutcome> {
    return deactivateIn(this.tables.licenses.get(licenseId), which, quota);
  }

  async unbind(id: string): Promise<void> {
    const row = this.tables.licenses.get(id);
    if (row) row.activations = [];
  }

  async update(id: string, patch: LicensePatch, expect: LicensePatch = {}): Promise<License | null> {
    const row = this.tables.licenses.get(id);
    const expected = Object.entries(expect).every(([field, value]) => value === undefined || row?.[field as keyof typeof row] === value);
    if (!row || !expected) return null;
    for (const [field, value] of Object.entries(patch)) if (value !== undefined) Object.assign(row, { [field]: value });
    return this.findById(id);
  }

  async reissue(licenseId: string, change: LicenseReissue): Promise<License | null> {
    const row = this.tables.licenses.get(licenseId);
    if (!row || row.keyHash !== change.expectKeyHash || (change.convert && !row.trial)) return null;
    // Every check before the first write, and no await in between: the swap is atomic.
    const holder = this.byKeyHash.get(change.keyHash);
    requireUnique(holder !== undefined && holder !== row, 'licenses.key_hash');
    const { checkoutSessionId, purchaseId } = change.convert ?? {};
    if (checkoutSessionId !== undefined && this.byCheckoutSession.has(checkoutSessionId)) {
      throw new ConflictError('conflict', 'This checkout session already has its license.');
    }
    if (purchaseId !== undefined && this.byPurchase.has(purchaseId)) throw new ConflictError('conflict', 'This purchase already has its license.');
    if (purchaseId !== undefined) requireRow(this.tables.purchases, purchaseId, 'licenses.purchase_id');
    this.byKeyHash.delete(row.keyHash);
    // Ed25519 is deterministic: unchanged claims give the same key, which then stays current.
    if (change.keyHash !== row.keyHash) this.retired.set(row.keyHash, row.id);
    Object.assign(row, { licenseKey: change.licenseKey, keyHash: change.keyHash, expiresAt: change.expiresAt, features: [...change.features] });
    this.byKeyHash.set(row.keyHash, row);
    if (change.convert) row.trial = false;
    if (checkoutSessionId !== undefined) this.byCheckoutSession.set((row.checkoutSessionId = checkoutSessionId), row);
    if (purchaseId !== undefined) this.byPurchase.set((row.purchaseId = purchaseId), row);
    if (change.subscriptionId !== undefined) row.subscriptionId = change.subscriptionId;
    return licenseOf(row);
  }

  async listByDeveloper(developerId: string, query: LicenseListQuery): Promise<LicensePage> {
    return listMemoryLicenses(this.tables, developerId, query);
  }
}
