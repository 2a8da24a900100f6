import { and, eq, exists, isNull, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ApiKeyRecord } from '../../../domain/developer.ts';
import { ConflictError } from '../../../domain/errors.ts';
import type { DeveloperRepository, NewAccount } from '../../../ports/developer-repository.ts';
import { apiKeys, developers, signingKeys } from '../tables.ts';
import { postgresSqlStore } from '../sql-store.ts';
import { DrizzleDeveloperRepository } from './developer-queries.ts';
import { isUniqueViolation, type PostgresDb } from '../../postgres/postgres-store.ts';
import { keepPostgresAnswer } from '../idempotency/idempotency-claim.ts';

export class PostgresDeveloperRepository extends DrizzleDeveloperRepository implements DeveloperRepository {
  // Every authenticated request reads its key by digest: built once.
  private readonly byHash;

  constructor(private readonly db: PostgresDb) {
    super(postgresSqlStore(db));
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

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const [row] = await this.byHash.execute({ hash: keyHash });
    return row ?? null;
  }

  async addApiKey(record: ApiKeyRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(apiKeys).values(record);
      await keepPostgresAnswer(tx);
    });
  }

  async revokeApiKey(developerId: string, id: string, at: number): Promise<ApiKeyRecord | null> {
    const theKey = and(eq(apiKeys.id, id), eq(apiKeys.developerId, developerId));
    return this.db.transaction(async (tx) => {
      // Revocations of one developer's keys queue on the developer's row: under READ COMMITTED two
      // concurrent ones would otherwise each see the other's key still active and both revoke.
      await tx.select({ id: developers.id }).from(developers).where(eq(developers.id, developerId)).for('update');
      // The first revocation's time stays, and the last active secret key is kept.
      const [revoked] = await tx
        .update(apiKeys)
        .set({ revokedAt: at })
        .where(and(theKey, isNull(apiKeys.revokedAt), this.notLastSecret(tx, developerId, id)))
        .returning();
      if (revoked) return revoked;
      const [row] = await tx.select().from(apiKeys).where(theKey);
      return row ?? null;
    });
  }

  /** The key is not a secret one, or the developer has another active secret key. */
  private notLastSecret(tx: Pick<PostgresDb, 'select'>, developerId: string, id: string) {
    const other = alias(apiKeys, 'other_key');
    const otherActiveSecret = tx
      .select({ one: sql`1` })
      .from(other)
      .where(and(eq(other.developerId, developerId), ne(other.id, id), eq(other.scope, 'secret'), isNull(other.revokedAt)));
    return or(ne(apiKeys.scope, 'secret'), exists(otherActiveSecret));
  }
}
