import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { ApiKeyRecord, Developer } from '../../domain/developer.ts';
import { ConflictError } from '../../domain/errors.ts';
import type { DeveloperRepository, NewAccount } from '../../ports/developer-repository.ts';
import { apiKeys, developers, signingKeys } from './schema.ts';
import { isUniqueViolation, type PostgresDb } from './postgres-store.ts';

export class PostgresDeveloperRepository implements DeveloperRepository {
  // Every authenticated request reads its key by digest: built once.
  private readonly byHash;

  constructor(private readonly db: PostgresDb) {
    this.byHash = db.select().from(apiKeys).where(eq(apiKeys.keyHash, sql.placeholder('hash'))).prepare('api_key_by_hash');
  }

  async createAccount(account: NewAccount): Promise<void> {
    try {
      await this.db.transaction(async (tx) => {
        await tx.insert(developers).values(account.developer);
        await tx.insert(apiKeys).values(account.apiKeys);
        await tx.insert(signingKeys).values(account.signingKey);
      });
    } catch (error) {
      if (isUniqueViolation(error, 'developers_email_unique')) throw new ConflictError('email_taken', 'An account with this e-mail already exists.');
      throw error;
    }
  }

  async findById(id: string): Promise<Developer | null> {
    const [row] = await this.db.select().from(developers).where(eq(developers.id, id));
    return row ?? null;
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const [row] = await this.byHash.execute({ hash: keyHash });
    return row ?? null;
  }

  async listApiKeys(developerId: string): Promise<ApiKeyRecord[]> {
    return this.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.developerId, developerId))
      .orderBy(desc(apiKeys.createdAt), desc(sql`${apiKeys.id} COLLATE "C"`));
  }

  async addApiKey(record: ApiKeyRecord): Promise<void> {
    await this.db.insert(apiKeys).values(record);
  }

  async revokeApiKey(developerId: string, id: string, at: number): Promise<ApiKeyRecord | null> {
    const theKey = and(eq(apiKeys.id, id), eq(apiKeys.developerId, developerId));
    // The first revocation's time stays: revoking again changes nothing.
    const [revoked] = await this.db.update(apiKeys).set({ revokedAt: at }).where(and(theKey, isNull(apiKeys.revokedAt))).returning();
    if (revoked) return revoked;
    const [row] = await this.db.select().from(apiKeys).where(theKey);
    return row ?? null;
  }
}
