import { and, type AnyColumn, desc, eq, isNull, lte, or } from 'drizzle-orm';
import { API_KEY_LAST_USED_RESOLUTION_MS, type ApiKeyRecord, type Developer } from '../../../domain/developer.ts';
import type { DeveloperRepository } from '../../../ports/developer-repository.ts';
import { oneOrNull, type SqlStore } from '../sql-store.ts';

/** What each dialect writes itself: the changes that run in its transactions, and the hot path's prepared read by digest. */
type DialectPart = 'createAccount' | 'findApiKeyByHash' | 'addApiKey' | 'revokeApiKey';

/**
 * DeveloperRepository.touchApiKey's UPDATE: lastUsedAt becomes `at` only when it is unset or a
 * minute older, so concurrent requests (and other instances) write it once a minute at most.
 */
function lastUsedStatement(apiKeys: { keyHash: AnyColumn; lastUsedAt: AnyColumn }, keyHash: string, at: number) {
  const stale = or(isNull(apiKeys.lastUsedAt), lte(apiKeys.lastUsedAt, at - API_KEY_LAST_USED_RESOLUTION_MS));
  return { set: { lastUsedAt: at }, where: and(eq(apiKeys.keyHash, keyHash), stale) };
}

/** What the two developer repositories share: the reads outside transactions, and the last-used stamp (one statement). */
export abstract class DrizzleDeveloperRepository implements Omit<DeveloperRepository, DialectPart> {
  constructor(private readonly store: SqlStore) {}

  async findById(id: string): Promise<Developer | null> {
    const { db, tables: { developers } } = this.store;
    return oneOrNull(db.select().from(developers).where(eq(developers.id, id)));
  }

  async findByEmail(email: string): Promise<Developer | null> {
    const { db, tables: { developers } } = this.store;
    return oneOrNull(db.select().from(developers).where(eq(developers.email, email)));
  }

  async touchApiKey(keyHash: string, at: number): Promise<boolean> {
    const { db, tables: { apiKeys } } = this.store;
    const { set, where } = lastUsedStatement(apiKeys, keyHash, at);
    return (await db.update(apiKeys).set(set).where(where).returning({ id: apiKeys.id })).length > 0;
  }

  async listApiKeys(developerId: string): Promise<ApiKeyRecord[]> {
    const { db, tables: { apiKeys }, dialect } = this.store;
    return db.select().from(apiKeys).where(eq(apiKeys.developerId, developerId)).orderBy(desc(apiKeys.createdAt), desc(dialect.byteOrder(apiKeys.id)));
  }
}
