import { and, eq, gt } from 'drizzle-orm';
import { nextDeactivationAt } from '../../../domain/activation.ts';
import type { RecordMachineFile } from './machine-file-queries.ts';
import { licenses, machineFiles } from '../tables.ts';
import type { PostgresDb } from '../../postgres/postgres-store.ts';

/**
 * The count and the insert under the license's row lock (SELECT … FOR UPDATE): concurrent requests
 * for one license, from any instance, count one at a time and see each other's rows.
 */
export function postgresRecordMachineFile(db: PostgresDb): RecordMachineFile {
  return (file, quota) =>
    db.transaction(async (tx) => {
      const [license] = await tx.select({ id: licenses.id }).from(licenses).where(eq(licenses.id, file.licenseId)).for('update');
      if (!license) return { kind: 'missing' } as const;
      const past = await tx
        .select({ at: machineFiles.issuedAt })
        .from(machineFiles)
        .where(and(eq(machineFiles.licenseId, file.licenseId), gt(machineFiles.issuedAt, file.issuedAt - quota.windowMs)));
      const retryAt = nextDeactivationAt(past.map((row) => row.at), quota.limit, file.issuedAt, quota.windowMs);
      if (retryAt !== null) return { kind: 'limited', retryAt } as const;
      await tx.insert(machineFiles).values(file);
      return { kind: 'recorded' } as const;
    });
}
