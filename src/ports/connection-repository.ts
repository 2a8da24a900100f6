import type { ConnectState, ProcessorAccount } from '../domain/connect.ts';

export interface ConnectionRepository {
  saveState(state: ConnectState): Promise<void>;
  /**
   * Marks the state used and returns it, once: a second use, or an unknown state, is null
   * (also when two callbacks race).
   */
  useState(stateHash: string, at: number): Promise<ConnectState | null>;
  /** One account per developer: connecting again replaces it. */
  saveAccount(account: ProcessorAccount): Promise<void>;
  accountOf(developerId: string): Promise<ProcessorAccount | null>;
  /** The processor revoked our access: every developer on that account is disconnected. */
  removeAccount(accountId: string): Promise<void>;
  /** Retention: deletes up to `limit` connect states that expired before `before`; returns how many. */
  deleteExpiredStates(before: number, limit: number): Promise<number>;
}
