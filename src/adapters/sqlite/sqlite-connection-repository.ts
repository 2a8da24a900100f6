import { and, eq, isNull } from 'drizzle-orm';
import type { ConnectState, ProcessorAccount } from '../../domain/connect.ts';
import type { ConnectionRepository } from '../../ports/connection-repository.ts';
import { connectStates, processorAccounts } from './schema.ts';
import type { SqliteDb } from './sqlite-store.ts';
import { deleteExpiredConnectStates } from './sqlite-retention.ts';

export class SqliteConnectionRepository implements ConnectionRepository {
  constructor(private readonly db: SqliteDb) {}

  async saveState(state: ConnectState): Promise<void> {
    this.db.insert(connectStates).values(state).run();
  }

  async useState(stateHash: string, at: number): Promise<ConnectState | null> {
    // Only the caller whose conditional update changed the row gets it back. `.all()`, not `.get()`, on
    // RETURNING: bun:sqlite leaves a `.get()` statement open, which keeps the WAL from checkpointing.
    const [used] = this.db
      .update(connectStates)
      .set({ usedAt: at })
      .where(and(eq(connectStates.stateHash, stateHash), isNull(connectStates.usedAt)))
      .returning()
      .all();
    return used ?? null;
  }

  async saveAccount(account: ProcessorAccount): Promise<void> {
    const { accountId, connectedAt } = account;
    this.db
      .insert(processorAccounts)
      .values(account)
      .onConflictDoUpdate({ target: processorAccounts.developerId, set: { accountId, connectedAt } })
      .run();
  }

  async accountOf(developerId: string): Promise<ProcessorAccount | null> {
    return this.db.select().from(processorAccounts).where(eq(processorAccounts.developerId, developerId)).get() ?? null;
  }

  async removeAccount(accountId: string): Promise<void> {
    this.db.delete(processorAccounts).where(eq(processorAccounts.accountId, accountId)).run();
  }

  async deleteExpiredStates(before: number, limit: number): Promise<number> {
    return deleteExpiredConnectStates(this.db, before, limit);
  }
}
