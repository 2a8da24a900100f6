import { and, desc, eq, lt, or } from 'drizzle-orm';
import type { MachineFileRecord } from '../../../domain/machine-file.ts';
import type { IssueQuota, MachineFilePage, MachineFileRepository, RecordOutcome } from '../../../ports/machine-file-repository.ts';
import { oneOrNull, type SqlStore } from '../sql-store.ts';

/** A dialect's counted insert: one transaction holding the license (row lock or IMMEDIATE). */
export type RecordMachineFile = (file: MachineFileRecord, quota: IssueQuota) => Promise<RecordOutcome>;

/** Reads are the same in both dialects; the counted insert is each dialect's own transaction. */
export class DrizzleMachineFileRepository implements MachineFileRepository {
  constructor(
    private readonly store: SqlStore,
    readonly record: RecordMachineFile,
  ) {}

  get(licenseId: string, id: string): Promise<MachineFileRecord | null> {
    const { db, tables: { machineFiles: f } } = this.store;
    return oneOrNull(db.select().from(f).where(and(eq(f.licenseId, licenseId), eq(f.id, id))));
  }

  async list(licenseId: string, page: { limit: number; startingAfter?: string }): Promise<MachineFilePage> {
    const { db, dialect, tables: { machineFiles: f } } = this.store;
    const cursor = page.startingAfter === undefined ? null : await this.get(licenseId, page.startingAfter);
    const before = cursor ? or(lt(f.issuedAt, cursor.issuedAt), and(eq(f.issuedAt, cursor.issuedAt), lt(dialect.byteOrder(f.id), cursor.id))) : undefined;
    const rows = await db
      .select()
      .from(f)
      .where(and(eq(f.licenseId, licenseId), before))
      .orderBy(desc(f.issuedAt), desc(dialect.byteOrder(f.id)))
      .limit(page.limit + 1);
    return { data: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
  }
}
