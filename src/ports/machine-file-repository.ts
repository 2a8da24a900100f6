import type { MachineFileRecord } from '../domain/machine-file.ts';
import type { Page } from './page.ts';

/** The per-license issuing limit, counted by the store in the same transaction as the insert. */
export interface IssueQuota {
  limit: number;
  windowMs: number;
}

export type RecordOutcome =
  | { kind: 'recorded' }
  /** `limit` files issued within the window already: nothing written; the next one is allowed at `retryAt`. */
  | { kind: 'limited'; retryAt: number }
  | { kind: 'missing' };

export type MachineFilePage = Page<MachineFileRecord>;

/** Every machine file issued (docs/machine-files.md). */
export interface MachineFileRepository {
  /**
   * Records a file about to be handed out, unless the license has had `quota.limit` files within the
   * window before `file.issuedAt`: counted and inserted in one transaction under the license's row
   * lock (PostgreSQL) or one IMMEDIATE transaction (SQLite), so concurrent requests cannot pass it.
   */
  record(file: MachineFileRecord, quota: IssueQuota): Promise<RecordOutcome>;
  /** The license's files, newest first (issuedAt, then id); a page starts after `startingAfter`'s file. */
  list(licenseId: string, page: { limit: number; startingAfter?: string }): Promise<MachineFilePage>;
  get(licenseId: string, id: string): Promise<MachineFileRecord | null>;
}
