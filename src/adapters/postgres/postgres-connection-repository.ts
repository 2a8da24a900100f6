import { and, eq, isNull } from 'drizzle-orm';
import type { ConnectState, ProcessorAccount } from '../../domain/connect.ts';
import type { ConnectionRepository } from '../../ports/connection-repository.ts';
import { connectStates, processorAccounts } from './schema.ts';
import type { PostgresDb } from './postgres-store.ts';
import { deleteExpiredConnectStates } from './postgres-retention.ts';

export class PostgresConnectionRepository implements ConnectionRepository {
  constructor(private readonly db: PostgresDb) {}

  async saveState(state: ConnectState): Promise<void> {
    await this.db.insert(connectStates).values(state);
  }

  async useState(stateHash: string, at: number): Promise<ConnectState | null> {
    // Only the caller whose conditional update changed the row gets it back.
    const [used] = await this.db
      .update(connectStates)
      .set({ usedAt: at })
      .where(and(eq(connectStates.stateHash, stateHash), isNull(connectStates.usedAt)))
      .returning();
    return used ?? null;
  }

  async saveAccount(account: ProcessorAccount): Promise<void> {
    const { accountId, connectedAt } = account;
    await this.db
      .insert(processorAccounts)
      .values(account)
      .onConflictDoUpdate({ target: processorAccounts.developerId, set: { accountId, connectedAt } });
  }

  async accountOf(developerId: string): Promise<ProcessorAccount | null> {
    const [row] = await this.db.select().from(processorAccounts).where(eq(processorAccounts.developerId, developerId));
    return row ?? null;
  }

  async removeAccount(accountId: string): Promise<void> {
    await this.db.delete(processorAccounts).where(eq(processorAccounts.accountId, accountId));
  }

  async deleteExpiredStates(before: number, limit: number): Promise<number> {
    return deleteExpiredConnectStates(this.db, before, limit);
  }
}
