import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { leaseEvent, leaseLimitReached } from '../../../domain/events.ts';
import type { LeaseCheckout, LeaseRelease, LeaseRepository, LicenseLeaseTerms, NewLease } from '../../../ports/lease-repository.ts';
import { sqliteSqlStore } from '../sql-store.ts';
import { DrizzleLeaseRepository } from './lease-queries.ts';
import { decideCheckout, leaseColumns, leaseOwnerColumns, leaseTermsOf, releasable, renewedColumns, type LeaseOwnerRow } from './lease-rows.ts';
import { leases, licenseLeaseTerms, licenses, products } from '../../sqlite/schema.ts';
import { emitSqliteEvent, type SqliteWriter } from '../events/sqlite-events.ts';
import type { SqliteDb } from '../../sqlite/sqlite-store.ts';

const columns = leaseColumns(leases);

const ownerColumns = leaseOwnerColumns({ licenses, products, own: licenseLeaseTerms });

function ownerRow(tx: Pick<SqliteDb, 'select'>, licenseId: string): LeaseOwnerRow | undefined {
  return tx
    .select(ownerColumns)
    .from(licenses)
    .innerJoin(products, eq(products.id, licenses.productId))
    .leftJoin(licenseLeaseTerms, eq(licenseLeaseTerms.licenseId, licenses.id))
    .where(eq(licenses.id, licenseId))
    .get();
}

/**
 * Leases on SQLite: a checkout is one IMMEDIATE transaction, so the write lock is held from the count
 * of live leases to the insert; another connection (thread, process) cannot take the seat in between.
 */
export class SqliteLeaseRepository extends DrizzleLeaseRepository implements LeaseRepository {
  constructor(private readonly db: SqliteDb) {
    super(sqliteSqlStore(db));
  }

  async checkout(licenseId: string, input: NewLease): Promise<LeaseCheckout> {
    return this.db.transaction((tx) => this.checkoutIn(tx, licenseId, input), { behavior: 'immediate' });
  }

  private checkoutIn(tx: SqliteWriter, licenseId: string, input: NewLease): LeaseCheckout {
    const owner = ownerRow(tx, licenseId);
    if (!owner) return { kind: 'missing' };
    const held = tx.select(columns).from(leases).where(eq(leases.licenseId, licenseId)).all();
    const decision = decideCheckout(licenseId, owner, held, input);
    if (decision.kind !== 'write') return decision.outcome;
    if (decision.endedOwn) {
      tx.delete(leases).where(eq(leases.id, decision.endedOwn.id)).run();
      emitSqliteEvent(tx, leaseEvent('lease.expired', decision.endedOwn, owner));
    }
    const { lease, renewed, live, maxLeases } = decision;
    if (renewed) {
      tx.update(leases).set(renewedColumns(lease, input)).where(eq(leases.id, lease.id)).run();
      return { kind: 'renewed', lease };
    }
    tx.insert(leases).values({ ...lease, borrowed: input.borrowHours > 0 }).run();
    emitSqliteEvent(tx, leaseEvent('lease.created', lease, owner));
    emitSqliteEvent(tx, leaseLimitReached(lease, owner, live, maxLeases));
    return { kind: 'created', lease };
  }

  async release(licenseId: string, leaseId: string, now: number): Promise<LeaseRelease> {
    return this.db.transaction((tx): LeaseRelease => {
      const mine = and(eq(leases.id, leaseId), eq(leases.licenseId, licenseId));
      const [removed] = tx.delete(leases).where(and(mine, releasable(leases, now))).returning(columns).all();
      if (!removed) {
        const kept = tx.select({ expiresAt: leases.expiresAt }).from(leases).where(mine).get();
        return kept ? { kind: 'borrowed', expiresAt: kept.expiresAt } : { kind: 'missing' };
      }
      const owner = ownerRow(tx, licenseId);
      if (owner) emitSqliteEvent(tx, leaseEvent('lease.released', removed, owner));
      return { kind: 'released', lease: removed };
    }, { behavior: 'immediate' });
  }

  async terms(licenseId: string): Promise<LicenseLeaseTerms | null> {
    const owner = ownerRow(this.db, licenseId);
    return owner ? leaseTermsOf(owner) : null;
  }

  async setOverrides(developerId: string, licenseId: string, overrides: LicenseLeaseTerms['license']): Promise<boolean> {
    return this.db.transaction((tx) => {
      const found = tx.select({ id: licenses.id }).from(licenses).where(and(eq(licenses.id, licenseId), eq(licenses.developerId, developerId))).get();
      if (!found) return false;
      tx.insert(licenseLeaseTerms).values({ licenseId, ...overrides }).onConflictDoUpdate({ target: licenseLeaseTerms.licenseId, set: overrides }).run();
      return true;
    }, { behavior: 'immediate' });
  }

  async deleteExpired(before: number, limit: number): Promise<number> {
    return this.db.transaction((tx) => {
      const due = tx.select({ id: leases.id }).from(leases).where(lte(leases.expiresAt, before)).orderBy(asc(leases.expiresAt)).limit(limit).all();
      if (due.length === 0) return 0;
      const removed = tx.delete(leases).where(and(inArray(leases.id, due.map((d) => d.id)), lte(leases.expiresAt, before))).returning(columns).all();
      for (const lease of removed) {
        const owner = ownerRow(tx, lease.licenseId);
        if (owner) emitSqliteEvent(tx, leaseEvent('lease.expired', lease, owner));
      }
      return removed.length;
    }, { behavior: 'immediate' });
  }
}

