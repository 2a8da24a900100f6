import { and, asc, desc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { CustomerDirectory, CustomerListQuery, CustomerPage, DirectoryEntry, SellerCustomer } from '../../../ports/customer-directory.ts';
import { prefixEnd } from '../../../ports/customer-directory.ts';
import { licenseSummaryColumns } from '../licenses/license-rows.ts';
import { developerCustomers as dc, licenses } from '../tables.ts';
import type { PostgresDb } from '../../postgres/postgres-store.ts';

// Compared and ordered byte-wise (COLLATE "C"), as the indexes are built and as SQLite compares.
const EMAIL = sql`${dc.email} COLLATE "C"`;
const CUSTOMER = sql`${dc.customerId} COLLATE "C"`;
const entryColumns = { customerId: dc.customerId, email: dc.email, firstSeenAt: dc.firstSeenAt };

/** A seller's customers from developer_customers (written with each new license). */
export class PostgresCustomerDirectory implements CustomerDirectory {
  constructor(private readonly db: PostgresDb) {}

  async find(developerId: string, customerId: string): Promise<DirectoryEntry | null> {
    const [entry] = await this.db.select(entryColumns).from(dc).where(and(eq(dc.developerId, developerId), eq(dc.customerId, customerId)));
    return entry ?? null;
  }

  async list(developerId: string, query: CustomerListQuery): Promise<CustomerPage> {
    const rows = await this.entries(developerId, query);
    const page = rows.slice(0, query.limit);
    return { data: await this.withLicenses(developerId, page, query.licensesPerCustomer), hasMore: rows.length > query.limit };
  }

  /** Walks developer_customers_email for a prefix (a range, not LIKE), developer_customers_order otherwise. */
  entries(developerId: string, query: CustomerListQuery): Promise<DirectoryEntry[]> {
    const { after, emailPrefix } = query;
    const base = this.db.select(entryColumns).from(dc);
    if (emailPrefix !== undefined) {
      return base
        // Both lower bounds: PostgreSQL starts the index range at the tighter one (the cursor on later pages).
        .where(and(eq(dc.developerId, developerId), sql`${EMAIL} >= ${emailPrefix}`, sql`${EMAIL} < ${prefixEnd(emailPrefix)}`, after ? sql`${EMAIL} > ${after.email}` : undefined))
        .orderBy(asc(EMAIL))
        .limit(query.limit + 1);
    }
    const before = after
      ? and(lte(dc.firstSeenAt, after.firstSeenAt), or(lt(dc.firstSeenAt, after.firstSeenAt), sql`${CUSTOMER} < ${after.customerId}`))
      : undefined;
    return base
      .where(and(eq(dc.developerId, developerId), before))
      .orderBy(desc(dc.firstSeenAt), desc(CUSTOMER))
      .limit(query.limit + 1);
  }

  /** Each customer's newest licenses from this seller, one query (licenses_customer, ranked per customer). */
  private async withLicenses(developerId: string, page: DirectoryEntry[], perCustomer: number): Promise<SellerCustomer[]> {
    if (page.length === 0) return [];
    const ranked = this.db
      .select({
        ...licenseSummaryColumns(licenses),
        rank: sql<number>`row_number() OVER (PARTITION BY ${licenses.customerId} ORDER BY ${licenses.issuedAt} DESC, ${licenses.id} COLLATE "C" DESC)`.as('rank'),
      })
      .from(licenses)
      .where(and(eq(licenses.developerId, developerId), inArray(licenses.customerId, page.map((c) => c.customerId))))
      .as('ranked');
    const rows = await this.db.select().from(ranked).where(lte(ranked.rank, perCustomer + 1)).orderBy(asc(ranked.rank));
    return page.map((entry) => {
      const mine = rows.filter((r) => r.customerId === entry.customerId);
      const shown = mine.slice(0, perCustomer).map(({ customerId: _c, rank: _r, ...license }) => license);
      return { ...entry, licenses: shown, moreLicenses: mine.length > perCustomer };
    });
  }
}
