import { and, eq, isNull } from 'drizzle-orm';
import type { ConnectState, ProcessorAccount } from '../../../domain/connect.ts';
import type { ConnectionRepository } from '../../../ports/connection-repository.ts';
import { deleteExpiredConnectStates } from '../retention.ts';
import { oneOrNull, type SqlStore } from '../sql-store.ts';

export class DrizzleConnectionRepository implements ConnectionRepository {
  constructor(private readonly store: SqlStore) {}

  async saveState(state: ConnectState): Promise<void> {
    await this.store.db.insert(this.store.tables.connectStates).values(state);
  }

  async useState(stateHash: string, at: number): Promise<ConnectState | null> {
    const { connectStates } = this.store.tables;
    // Only the caller whose conditional update changed the row gets it back.
    const [used] = await this.store.db
      .update(connectStates)
      .set({ usedAt: at })
      .where(and(eq(connectStates.stateHash, stateHash), isNull(connectStates.usedAt)))
      .returning();
    return used ?? null;
  }

  async saveAccount(account: ProcessorAccount): Promise<void> {
    const { processorAccounts } = this.store.tables;
    const { accountId, connectedAt } = account;
    await this.store.db
      .insert(processorAccounts)
      .values(account)
      .onConflictDoUpdate({ target: processorAccounts.developerId, set: { accountId, connectedAt } });
  }

  async accountOf(developerId: string): Promise<ProcessorAccount | null> {
    const { processorAccounts } = this.store.tables;
    return oneOrNull(this.store.db.select().from(processorAccounts).where(eq(processorAccounts.developerId, developerId)));
  }

  async removeAccount(accountId: string): Promise<void> {
    const { processorAccounts } = this.store.tables;
    await this.store.db.delete(processorAccounts).where(eq(processorAccounts.accountId, accountId));
  }

  async deleteExpiredStates(before: number, limit: number): Promise<number> {
    return deleteExpiredConnectStates(this.store, before, limit);
  }
}
