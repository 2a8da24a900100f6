import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { leaseEvent, leaseLimitReached } from '../../../domain/events.ts';
import type { LeaseOverrides } from '../../../domain/lease.ts';
import type { LeaseCheckout, LeaseRelease, LeaseRepository, LicenseLeaseTerms, NewLease } from '../../../ports/lease-repository.ts';
import { postgresSqlStore } from '../sql-store.ts';
import { DrizzleLeaseRepository } from './lease-queries.ts';
import { decideCheckout, leaseColumns, leaseOwnerColumns, leaseTermsOf, releasable, renewedColumns, type LeaseOwnerRow } from './lease-rows.ts';
import { emitPostgresEvent } from '../events/postgres-events.ts';
import { leases, licenseLeaseTerms, licenses, products } from '../tables.ts';
import type { PostgresDb } from '../../postgres/postgres-store.ts';

type Tx = Parameters<Parameters<PostgresDb['transaction']>[0]>[0];

const columns = leaseColumns(leases);
const ownerColumns = leaseOwnerColumns({ licenses, products, own: licenseLeaseTerms });

/** The license, its product and its own terms; with `lock`, the license row is locked (FOR UPDATE OF licenses). */
async function ownerRow(db: PostgresDb | Tx, licenseId: string, lock = false): Promise<LeaseOwnerRow | undefined> {
  const query = db
    .select(ownerColumns)
    .from(licenses)
    .innerJoin(products, eq(products.id, licenses.productId))
    .leftJoin(licenseLeaseTerms, eq(licenseLeaseTerms.licenseId, licenses.id))
    .where(eq(licenses.id, licenseId));
  const [row] = lock ? await query.for('update', { of: licenses }) : await query;
  return row;
}

/**
 * Leases on PostgreSQL: a checkout locks the license row first (SELECT … FOR UPDATE), so concurrent
 * checkouts of one license, from any instance, count and insert one at a time.
 */
export class PostgresLeaseRepository extends DrizzleLeaseRepository implements LeaseRepository {
  constructor(private readonly db: PostgresDb) {
    super(postgresSqlStore(db));
  }

  checkout(licenseId: string, input: NewLease): Promise<LeaseCheckout> {
    return this.db.transaction(async (tx): Promise<LeaseCheckout> => {
      const owner = await ownerRow(tx, licenseId, true);
      if (!owner) return { kind: 'missing' };
      const held = await tx.select(columns).from(leases).where(eq(leases.licenseId, licenseId));
      const decision = decideCheckout(licenseId, owner, held, input);
      if (decision.kind !== 'write') return decision.outcome;
      if (decision.endedOwn) {
        await tx.delete(leases).where(eq(leases.id, decision.endedOwn.id));
        await emitPostgresEvent(tx, leaseEvent('lease.expired', decision.endedOwn, owner));
      }
      const { lease, renewed, live, maxLeases } = decision;
      if (renewed) {
        await tx.update(leases).set(renewedColumns(lease, input)).where(eq(leases.id, lease.id));
        return { kind: 'renewed', lease };
      }
      await tx.insert(leases).values({ ...lease, borrowed: input.borrowHours > 0 });
      await emitPostgresEvent(tx, leaseEvent('lease.created', lease, owner));
      await emitPostgresEvent(tx, leaseLimitReached(lease, owner, live, maxLeases));
      return { kind: 'created', lease };
    });
  }

  release(licenseId: string, leaseId: string, now: number): Promise<LeaseRelease> {
    return this.db.transaction(async (tx): Promise<LeaseRelease> => {
      const mine = and(eq(leases.id, leaseId), eq(leases.licenseId, licenseId));
      const [removed] = await tx.delete(leases).where(and(mine, releasable(leases, now))).returning(columns);
      if (!removed) {
        const [kept] = await tx.select({ expiresAt: leases.expiresAt }).from(leases).where(mine);
        return kept ? { kind: 'borrowed', expiresAt: kept.expiresAt } : { kind: 'missing' };
      }
      const owner = await ownerRow(tx, licenseId);
      if (owner) await emitPostgresEvent(tx, leaseEvent('lease.released', removed, owner));
      return { kind: 'released', lease: removed };
    });
  }

  async terms(licenseId: string): Promise<LicenseLeaseTerms | null> {
    const owner = await ownerRow(this.db, licenseId);
    return owner ? leaseTermsOf(owner) : null;
  }

  setOverrides(developerId: string, licenseId: string, overrides: LeaseOverrides): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [found] = await tx.select({ id: licenses.id }).from(licenses).where(and(eq(licenses.id, licenseId), eq(licenses.developerId, developerId)));
      if (!found) return false;
      await tx.insert(licenseLeaseTerms).values({ licenseId, ...overrides }).onConflictDoUpdate({ target: licenseLeaseTerms.licenseId, set: overrides });
      return true;
    });
  }

  /** One statement per batch: rows another instance deleted first are simply not returned, so each lease.expired goes once. */
  deleteExpired(before: number, limit: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      const due = tx.select({ id: leases.id }).from(leases).where(lte(leases.expiresAt, before)).orderBy(asc(leases.expiresAt)).limit(limit);
      const removed = await tx.delete(leases).where(and(inArray(leases.id, due), lte(leases.expiresAt, before))).returning(columns);
      for (const lease of removed) {
        const owner = await ownerRow(tx, lease.licenseId);
        if (owner) await emitPostgresEvent(tx, leaseEvent('lease.expired', lease, owner));
      }
      return removed.length;
    });
  }
}
