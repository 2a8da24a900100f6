import { and, asc, desc, eq, gt, gte, inArray, lt, lte, or } from 'drizzle-orm';
import type { CustomerDirectory, CustomerListQuery, CustomerPage, DirectoryEntry, SellerCustomer } from '../../../ports/customer-directory.ts';
import { prefixEnd } from '../../../ports/customer-directory.ts';
import { licenseSummaryColumns } from '../licenses/license-rows.ts';
import { developerCustomers as dc, licenses } from '../../sqlite/schema.ts';
import type { SqliteDb } from '../../sqlite/sqlite-store.ts';

const entryColumns = { customerId: dc.customerId, email: dc.email, firstSeenAt: dc.firstSeenAt };

/** A seller's customers from developer_customers (written with each new license). */
export class SqliteCustomerDirectory implements CustomerDirectory {
  constructor(private readonly db: SqliteDb) {}

  async find(developerId: string, customerId: string): Promise<DirectoryEntry | null> {
    return this.db.select(entryColumns).from(dc).where(and(eq(dc.developerId, developerId), eq(dc.customerId, customerId))).get() ?? null;
  }

  async list(developerId: string, query: CustomerListQuery): Promise<CustomerPage> {
    const rows = this.entries(developerId, query);
    const page = rows.slice(0, query.limit);
    return { data: this.withLicenses(developerId, page, query.licensesPerCustomer), hasMore: rows.length > query.limit };
  }

  /** Walks developer_customers_email for a prefix (a range, not LIKE), developer_customers_order otherwise. */
  entries(developerId: string, query: CustomerListQuery): DirectoryEntry[] {
    const { after, emailPrefix } = query;
    const base = this.db.select(entryColumns).from(dc);
    if (emailPrefix !== undefined) {
      return base
        // One lower bound, the tighter (SQLite would range over one of two): on later pages the cursor, so
        // the index range starts there instead of at the prefix. Compared as SQLite does, by code point.
        .where(and(eq(dc.developerId, developerId), after && byCodePoint(after.email, emailPrefix) >= 0 ? gt(dc.email, after.email) : gte(dc.email, emailPrefix), lt(dc.email, prefixEnd(emailPrefix))))
        .orderBy(asc(dc.email))
        .limit(query.limit + 1)
        .all();
    }
    const before = after
      ? and(lte(dc.firstSeenAt, after.firstSeenAt), or(lt(dc.firstSeenAt, after.firstSeenAt), lt(dc.customerId, after.customerId)))
      : undefined;
    return base
      .where(and(eq(dc.developerId, developerId), before))
      .orderBy(desc(dc.firstSeenAt), desc(dc.customerId))
      .limit(query.limit + 1)
      .all();
  }

  /**
   * Each customer's newest licenses from this seller: one query (licenses_customer) for the page's
   * customers, ranked here. In-process, reading the rows and sorting a customer's few costs a fifth
   * of a window function over them (0.17 against 0.85 ms for 20 customers × 20 licenses).
   */
  private withLicenses(developerId: string, page: DirectoryEntry[], perCustomer: number): SellerCustomer[] {
    if (page.length === 0) return [];
    const rows = this.db
      .select(licenseSummaryColumns(licenses))
      .from(licenses)
      .where(and(eq(licenses.developerId, developerId), inArray(licenses.customerId, page.map((c) => c.customerId))))
      .all();
    // Newest first, ties by id descending (ids are ASCII: JS order is byte order), as the license list.
    rows.sort((a, b) => b.issuedAt - a.issuedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return page.map((entry) => {
      const mine = rows.filter((r) => r.customerId === entry.customerId);
      const shown = mine.slice(0, perCustomer).map(({ customerId: _c, ...license }) => license);
      return { ...entry, licenses: shown, moreLicenses: mine.length > perCustomer };
    });
  }
}

/** UTF-8 byte order (SQLite's BINARY collation) = code point order; JS's < compares UTF-16 units. */
function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
