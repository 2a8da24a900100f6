import { and, asc, eq, gt } from 'drizzle-orm';
import { isLive, type Lease } from '../../../domain/lease.ts';
import type { LeaseHeartbeat, LeaseRepository } from '../../../ports/lease-repository.ts';
import { oneOrNull, type SqlStore } from '../sql-store.ts';
import { leaseColumns } from './lease-rows.ts';

/** What each dialect writes itself: the changes that run under its lock, and the owner's terms its writes read in them. */
type DialectPart = 'checkout' | 'release' | 'terms' | 'setOverrides' | 'deleteExpired';

/** What the two lease repositories share: a heartbeat (one conditional update) and the live list. */
export abstract class DrizzleLeaseRepository implements Omit<LeaseRepository, DialectPart> {
  private readonly columns;

  constructor(private readonly store: SqlStore) {
    this.columns = leaseColumns(store.tables.leases);
  }

  async heartbeat(licenseId: string, leaseId: string, now: number, expiresAt: number): Promise<LeaseHeartbeat> {
    const { db, tables: { leases } } = this.store;
    const [extended] = await db
      .update(leases)
      .set({ expiresAt })
      .where(and(eq(leases.id, leaseId), eq(leases.licenseId, licenseId), gt(leases.expiresAt, now), eq(leases.borrowed, false)))
      .returning(this.columns);
    if (extended) return { kind: 'extended', lease: extended };
    const found = await oneOrNull(db.select(this.columns).from(leases).where(and(eq(leases.id, leaseId), eq(leases.licenseId, licenseId))));
    return found && isLive(found, now) ? { kind: 'extended', lease: found } : found ? { kind: 'expired' } : { kind: 'missing' };
  }

  async listLive(licenseId: string, now: number): Promise<Lease[]> {
    const { db, tables: { leases }, dialect } = this.store;
    return db
      .select(this.columns)
      .from(leases)
      .where(and(eq(leases.licenseId, licenseId), gt(leases.expiresAt, now)))
      .orderBy(asc(leases.createdAt), asc(dialect.byteOrder(leases.id)));
  }
}
