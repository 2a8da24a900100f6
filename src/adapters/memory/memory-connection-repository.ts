import type { ConnectState, ProcessorAccount } from '../../domain/connect.ts';
import type { ConnectionRepository } from '../../ports/connection-repository.ts';
import { copy, copyOrNull, type MemoryTables, requireRow, requireUnique } from './memory-tables.ts';
import { deleteExpiredConnectStates } from './memory-retention.ts';

export class MemoryConnectionRepository implements ConnectionRepository {
  constructor(private readonly tables: MemoryTables) {}

  async saveState(state: ConnectState): Promise<void> {
    requireUnique(this.tables.connectStates.has(state.stateHash), 'connect_states.state_hash');
    requireRow(this.tables.developers, state.developerId, 'connect_states.developer_id');
    this.tables.connectStates.set(state.stateHash, copy(state));
  }

  async useState(stateHash: string, at: number): Promise<ConnectState | null> {
    // No await between the check and the write: one caller uses the state.
    const state = this.tables.connectStates.get(stateHash);
    if (!state || state.usedAt !== null) return null;
    state.usedAt = at;
    return copy(state);
  }

  async saveAccount(account: ProcessorAccount): Promise<void> {
    requireRow(this.tables.developers, account.developerId, 'processor_accounts.developer_id');
    this.tables.processorAccounts.set(account.developerId, copy(account));
  }

  async accountOf(developerId: string): Promise<ProcessorAccount | null> {
    return copyOrNull(this.tables.processorAccounts.get(developerId));
  }

  async removeAccount(accountId: string): Promise<void> {
    const accounts = this.tables.processorAccounts;
    for (const [developerId, account] of accounts) if (account.accountId === accountId) accounts.delete(developerId);
  }

  async deleteExpiredStates(before: number, limit: number): Promise<number> {
    return deleteExpiredConnectStates(this.tables, before, limit);
  }
}
