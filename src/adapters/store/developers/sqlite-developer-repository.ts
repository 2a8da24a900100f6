import { and, eq, exists, isNull, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { ApiKeyRecord } from '../../../domain/developer.ts';
import { ConflictError } from '../../../domain/errors.ts';
import type { DeveloperRepository, NewAccount } from '../../../ports/developer-repository.ts';
import { apiKeys, developers, signingKeys } from '../../sqlite/schema.ts';
import { isUniqueViolation, type SqliteDb } from '../../sqlite/sqlite-store.ts';
import { sqliteSqlStore } from '../sql-store.ts';
import { DrizzleDeveloperRepository } from './developer-queries.ts';
import { keepSqliteAnswer } from '../idempotency/idempotency-claim.ts';

export class SqliteDeveloperRepository extends DrizzleDeveloperRepository implements DeveloperRepository {
  private readonly byHash;

  constructor(private readonly db: SqliteDb) {
    super(sqliteSqlStore(db));
    this.byHash = db.select().from(apiKeys).where(eq(apiKeys.keyHash, sql.placeholder('hash'))).prepare();
  }

  async createAccount(account: NewAccount): Promise<void> {
    try {
      this.db.transaction((tx) => {
        tx.insert(developers).values(account.developer).run();
        tx.insert(apiKeys).values(account.apiKeys).run();
        tx.insert(signingKeys).values(account.signingKey).run();
      });
    } catch (error) {
      if (isUniqueViolation(error, 'developers.email')) throw new ConflictError('email_taken', 'An account with this e-mail already exists.');
      throw error;
    }
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return this.byHash.get({ hash: keyHash }) ?? null;
  }

  async addApiKey(record: ApiKeyRecord): Promise<void> {
    this.db.transaction((tx) => {
      tx.insert(apiKeys).values(record).run();
      keepSqliteAnswer(tx);
    });
  }

  async revokeApiKey(developerId: string, id: string, at: number): Promise<ApiKeyRecord | null> {
    const theKey = and(eq(apiKeys.id, id), eq(apiKeys.developerId, developerId));
    // One statement (SQLite has one writer): the first revocation's time stays, and the last
    // active secret key is kept.
    const [revoked] = this.db
      .update(apiKeys)
      .set({ revokedAt: at })
      .where(and(theKey, isNull(apiKeys.revokedAt), this.notLastSecret(developerId, id)))
      .returning()
      .all();
    return revoked ?? this.db.select().from(apiKeys).where(theKey).get() ?? null;
  }

  /** The key is not a secret one, or the developer has another active secret key. */
  private notLastSecret(developerId: string, id: string) {
    const other = alias(apiKeys, 'other_key');
    const otherActiveSecret = this.db
      .select({ one: sql`1` })
      .from(other)
      .where(and(eq(other.developerId, developerId), ne(other.id, id), eq(other.scope, 'secret'), isNull(other.revokedAt)));
    return or(ne(apiKeys.scope, 'secret'), exists(otherActiveSecret));
  }
}
