import { licenseStatus } from '../../domain/license.ts';
import type { DeveloperLicense, LicenseListQuery, LicensePage } from '../../ports/license-repository.ts';
import type { LicenseRow, MemoryTables } from './memory-tables.ts';

type Position = Pick<LicenseRow, 'issuedAt' | 'id'> & { expiresAt?: number | null };
type Order = (a: Position, b: Position) => number;

const byId = (a: Position, b: Position): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
/** Oldest first; ties by id, as SQL's ORDER BY issued_at, id (ids byte-wise). */
const oldestFirst: Order = (a, b) => a.issuedAt - b.issuedAt || byId(a, b);
/** Earliest expiry first (never = last), as SQL's ORDER BY expires_at, id for the expired list. */
const earliestExpiry: Order = (a, b) => (a.expiresAt ?? Infinity) - (b.expiresAt ?? Infinity) || byId(a, b);
const orderOf = (query: LicenseListQuery): Order => (query.status?.is === 'expired' ? earliestExpiry : oldestFirst);

function matches(row: LicenseRow, email: string, query: LicenseListQuery): boolean {
  const { after, status } = query;
  return (
    (query.productId === undefined || row.productId === query.productId) &&
    (query.customerEmail === undefined || email === query.customerEmail) &&
    (status === undefined || licenseStatus(row, status.now) === status.is) &&
    (query.trial === undefined || row.trial === query.trial) &&
    (query.issuedFrom === undefined || row.issuedAt >= query.issuedFrom) &&
    (query.issuedBefore === undefined || row.issuedAt < query.issuedBefore) &&
    (!after || orderOf(query)(row, after) < 0)
  );
}

function developerLicenseOf(row: LicenseRow, customerEmail: string): DeveloperLicense {
  const oldest = [...row.activations].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0];
  return structuredClone({
    id: row.id,
    developerId: row.developerId,
    productId: row.productId,
    customerId: row.customerId,
    storedStatus: row.storedStatus,
    features: row.features,
    issuedAt: row.issuedAt,
    expiresAt: row.expiresAt,
    machineFingerprint: oldest?.machineFingerprint ?? null,
    maxMachines: row.maxMachines,
    licenseKey: row.licenseKey,
    trial: row.trial,
    subscriptionId: row.subscriptionId,
    customerEmail,
  });
}

/** A seller's licenses, newest first: the SQL stores' list, by brute force. */
export function listMemoryLicenses(tables: MemoryTables, developerId: string, query: LicenseListQuery): LicensePage {
  const emailOf = (row: LicenseRow) => tables.customers.get(row.customerId)?.email ?? '';
  const rows = [...tables.licenses.values()]
    .filter((row) => row.developerId === developerId && matches(row, emailOf(row), query))
    .sort((a, b) => orderOf(query)(b, a))
    .slice(0, query.limit + 1);
  return { data: rows.slice(0, query.limit).map((row) => developerLicenseOf(row, emailOf(row))), hasMore: rows.length > query.limit };
}
