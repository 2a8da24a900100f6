import { and, asc, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { ConflictError } from '../../domain/errors.ts';
import type { License, StoredLicenseStatus } from '../../domain/license.ts';
import type { LicenseListQuery, LicensePage, LicenseRepository, LicenseState } from '../../ports/license-repository.ts';

type Origin = { checkoutSessionId?: string; purchaseId?: string };
import { customers, licenses } from './schema.ts';
import { isUniqueViolation, type SqliteDb } from './sqlite-store.ts';

const stateColumns = {
  id: licenses.id,
  developerId: licenses.developerId,
  storedStatus: licenses.status,
  features: licenses.features,
  expiresAt: licenses.expiresAt,
  machineFingerprint: licenses.machineFingerprint,
};

function licenseOf(row: typeof licenses.$inferSelect | undefined): License | null {
  if (!row) return null;
  const { status, keyHash: _hash, boundAt: _at, checkoutSessionId: _session, purchaseId: _purchase, ...rest } = row;
  return { ...rest, storedStatus: status };
}

export class SqliteLicenseRepository implements LicenseRepository {
  // The validation hot path: prepared once (drizzle re-prepares unprepared queries on every call).
  private readonly stateByHash;
  private readonly stateById;
  private readonly bind;

  constructor(private readonly db: SqliteDb) {
    this.stateByHash = db.select(stateColumns).from(licenses).where(eq(licenses.keyHash, sql.placeholder('hash'))).prepare();
    this.stateById = db.select(stateColumns).from(licenses).where(eq(licenses.id, sql.placeholder('id'))).prepare();
    this.bind = db
      .update(licenses)
      .set({ machineFingerprint: sql`${sql.placeholder('fp')}`, boundAt: sql`${sql.placeholder('at')}` })
      .where(and(eq(licenses.id, sql.placeholder('id')), isNull(licenses.machineFingerprint)))
      .prepare();
  }

  async create(license: License, keyHash: string, origin: Origin = {}): Promise<void> {
    const { storedStatus, ...rest } = license;
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
    return licenseOf(this.db.select().from(licenses).where(eq(licenses.checkoutSessionId, checkoutSessionId)).get());
  }

  async findByPurchase(purchaseId: string): Promise<License | null> {
    return licenseOf(this.db.select().from(licenses).where(eq(licenses.purchaseId, purchaseId)).get());
  }

  async listByCustomer(customerId: string): Promise<License[]> {
    const rows = this.db
      .select()
      .from(licenses)
      .where(eq(licenses.customerId, customerId))
      .orderBy(asc(licenses.issuedAt), asc(licenses.id))
      .all();
    return rows.map((row) => licenseOf(row)!);
  }

  async findById(id: string): Promise<License | null> {
    return licenseOf(this.db.select().from(licenses).where(eq(licenses.id, id)).get());
  }

  async findStateByKeyHash(keyHash: string): Promise<LicenseState | null> {
    return this.stateByHash.get({ hash: keyHash }) ?? null;
  }

  async findStateById(id: string): Promise<LicenseState | null> {
    return this.stateById.get({ id }) ?? null;
  }

  async bindIfUnbound(id: string, fingerprint: string, at: number): Promise<string | null> {
    // bun:sqlite is synchronous: the conditional update and the read happen with nothing in between.
    this.bind.run({ id, fp: fingerprint, at });
    return this.stateById.get({ id })?.machineFingerprint ?? null;
  }

  async unbind(id: string): Promise<void> {
    this.db.update(licenses).set({ machineFingerprint: null, boundAt: null }).where(eq(licenses.id, id)).run();
  }

  async setStatus(id: string, status: StoredLicenseStatus): Promise<void> {
    this.db.update(licenses).set({ status }).where(eq(licenses.id, id)).run();
  }

  async listByDeveloper(developerId: string, query: LicenseListQuery): Promise<LicensePage> {
    const { after } = query;
    // With an e-mail, the plan starts at the customer (unique e-mail index, then licenses_customer).
    const rows = this.db
      .select({ license: licenses, customerEmail: customers.email })
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
    const data = rows.slice(0, query.limit).map((row) => ({ ...licenseOf(row.license)!, customerEmail: row.customerEmail }));
    return { data, hasMore: rows.length > query.limit };
  }
}
