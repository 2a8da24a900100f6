import { and, asc, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { ConflictError } from '../../domain/errors.ts';
import type { License, StoredLicenseStatus } from '../../domain/license.ts';
import type { LicenseListQuery, LicensePage, LicenseRepository, LicenseState } from '../../ports/license-repository.ts';
import { customers, licenses } from './schema.ts';
import { isUniqueViolation, type PostgresDb } from './postgres-store.ts';

type Origin = { checkoutSessionId?: string; purchaseId?: string };

const stateColumns = {
  id: licenses.id,
  developerId: licenses.developerId,
  storedStatus: licenses.status,
  features: licenses.features,
  expiresAt: licenses.expiresAt,
  machineFingerprint: licenses.machineFingerprint,
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
  machineFingerprint: licenses.machineFingerprint,
  licenseKey: licenses.licenseKey,
};

export class PostgresLicenseRepository implements LicenseRepository {
  // The validation hot path: built once (PostgreSQL prepares each statement once per connection).
  private readonly stateByHash;
  private readonly stateById;
  private readonly bind;

  constructor(private readonly db: PostgresDb) {
    this.stateByHash = db.select(stateColumns).from(licenses).where(eq(licenses.keyHash, sql.placeholder('hash'))).prepare('license_state_by_hash');
    this.stateById = db.select(stateColumns).from(licenses).where(eq(licenses.id, sql.placeholder('id'))).prepare('license_state_by_id');
    this.bind = db
      .update(licenses)
      .set({ machineFingerprint: sql`${sql.placeholder('fp')}`, boundAt: sql`${sql.placeholder('at')}` })
      .where(and(eq(licenses.id, sql.placeholder('id')), isNull(licenses.machineFingerprint)))
      .returning({ machineFingerprint: licenses.machineFingerprint })
      .prepare('license_bind');
  }

  async create(license: License, keyHash: string, origin: Origin = {}): Promise<void> {
    const { storedStatus, ...rest } = license;
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
    return row ?? null;
  }

  async findStateById(id: string): Promise<LicenseState | null> {
    const [row] = await this.stateById.execute({ id });
    return row ?? null;
  }

  async bindIfUnbound(id: string, fingerprint: string, at: number): Promise<string | null> {
    // A racing UPDATE waits for the winner's commit, then finds the row bound and changes nothing;
    // the SELECT after it, a new statement under READ COMMITTED, reads the winner's fingerprint.
    const [won] = await this.bind.execute({ id, fp: fingerprint, at });
    if (won) return won.machineFingerprint;
    return (await this.findStateById(id))?.machineFingerprint ?? null;
  }

  async unbind(id: string): Promise<void> {
    await this.db.update(licenses).set({ machineFingerprint: null, boundAt: null }).where(eq(licenses.id, id));
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
