import type { ConsoleSession } from '../domain/console-session.ts';

/** Seller console sessions (docs/console-sign-in.md). Every write that names a session also names its developer. */
export interface ConsoleSessionRepository {
  create(session: ConsoleSession): Promise<void>;
  findByHash(tokenHash: string): Promise<ConsoleSession | null>;
  /** Records a use at `at` unless one was recorded since `since` (one write a minute at most). */
  touch(id: string, at: number, since: number): Promise<void>;
  /** The developer's sessions still usable at `now`, newest first. */
  listLive(developerId: string, now: number, idleMs: number): Promise<ConsoleSession[]>;
  /** Revokes this developer's session; false for an unknown id or another developer's session. The first revocation time stays. */
  revoke(developerId: string, id: string, at: number): Promise<boolean>;
  /** Revokes every session of the developer not revoked yet. */
  revokeAll(developerId: string, at: number): Promise<void>;
  /** Retention: deletes up to `limit` sessions that expired, or were revoked, before `before`; returns how many. */
  deleteEnded(before: number, limit: number): Promise<number>;
}
