import type { CustomerDirectory, CustomerListQuery, CustomerPage, DirectoryEntry } from '../../ports/customer-directory.ts';
import type { LicenseRow, MemoryTables } from './memory-tables.ts';

/** Byte-wise, as SQLite and PostgreSQL's COLLATE "C" compare UTF-8 text. */
const bytewise = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
const newestFirst = (a: DirectoryEntry, b: DirectoryEntry): number => b.firstSeenAt - a.firstSeenAt || bytewise(b.customerId, a.customerId);
const newestLicenseFirst = (a: LicenseRow, b: LicenseRow): number => b.issuedAt - a.issuedAt || bytewise(b.id, a.id);

/** The memory store has no trigger: a seller's customers are derived from their licenses. */
export class MemoryCustomerDirectory implements CustomerDirectory {
  constructor(private readonly tables: MemoryTables) {}

  async find(developerId: string, customerId: string): Promise<DirectoryEntry | null> {
    return this.entriesOf(developerId).find((e) => e.customerId === customerId) ?? null;
  }

  async list(developerId: string, query: CustomerListQuery): Promise<CustomerPage> {
    const { after, emailPrefix } = query;
    let entries = this.entriesOf(developerId);
    if (emailPrefix !== undefined) {
      entries = entries.filter((e) => e.email.startsWith(emailPrefix) && (!after || bytewise(e.email, after.email) > 0)).sort((a, b) => bytewise(a.email, b.email));
    } else {
      entries = entries.filter((e) => !after || newestFirst(after, e) < 0).sort(newestFirst);
    }
    const page = entries.slice(0, query.limit);
    const data = page.map((entry) => {
      const held = this.licensesOf(developerId, entry.customerId);
      const licenses = held.slice(0, query.licensesPerCustomer).map((l) => ({
        id: l.id,
        productId: l.productId,
        storedStatus: l.storedStatus,
        issuedAt: l.issuedAt,
        expiresAt: l.expiresAt,
        trial: l.trial,
      }));
      return { ...entry, licenses, moreLicenses: held.length > query.licensesPerCustomer };
    });
    return { data, hasMore: entries.length > query.limit };
  }

  private licensesOf(developerId: string, customerId: string): LicenseRow[] {
    return [...this.tables.licenses.values()].filter((l) => l.developerId === developerId && l.customerId === customerId).sort(newestLicenseFirst);
  }

  /** As the trigger fills it: first seen at the issue time of the first license inserted for them. */
  private entriesOf(developerId: string): DirectoryEntry[] {
    const entries = new Map<string, DirectoryEntry>();
    for (const license of this.tables.licenses.values()) {
      if (license.developerId !== developerId || entries.has(license.customerId)) continue;
      const email = this.tables.customers.get(license.customerId)?.email ?? '';
      entries.set(license.customerId, { customerId: license.customerId, email, firstSeenAt: license.issuedAt });
    }
    return [...entries.values()];
  }
}
