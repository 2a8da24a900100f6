import { and, eq, gt } from 'drizzle-orm';
import { nextDeactivationAt } from '../../../domain/activation.ts';
import type { RecordMachineFile } from './machine-file-queries.ts';
import { licenses, machineFiles } from '../../sqlite/schema.ts';
import type { SqliteDb } from '../../sqlite/sqlite-store.ts';

/** The count and the insert in one IMMEDIATE transaction: the write lock is held before the count is read. */
export function sqliteRecordMachineFile(db: SqliteDb): RecordMachineFile {
  return async (file, quota) =>
    db.transaction(
      (tx) => {
        if (!tx.select({ id: licenses.id }).from(licenses).where(eq(licenses.id, file.licenseId)).get()) return { kind: 'missing' } as const;
        const past = tx
          .select({ at: machineFiles.issuedAt })
          .from(machineFiles)
          .where(and(eq(machineFiles.licenseId, file.licenseId), gt(machineFiles.issuedAt, file.issuedAt - quota.windowMs)))
          .all();
        const retryAt = nextDeactivationAt(past.map((row) => row.at), quota.limit, file.issuedAt, quota.windowMs);
        if (retryAt !== null) return { kind: 'limited', retryAt } as const;
        tx.insert(machineFiles).values(file).run();
        return { kind: 'recorded' } as const;
      },
      { behavior: 'immediate' },
    );
}
