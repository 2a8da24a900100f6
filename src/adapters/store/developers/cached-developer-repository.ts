import type { ApiKeyRecord } from '../../../domain/developer.ts';
import type { DeveloperRepository } from '../../../ports/developer-repository.ts';
import { forwarding } from '../forwarding.ts';
import { LruMap } from '../lru-map.ts';

export interface ApiKeyCacheOptions {
  capacity: number;
  /**
   * How long a record may be served from memory. Infinity for the SQLite owner, whose process makes
   * every change; a few seconds with PostgreSQL, where another instance may change a key.
   */
  ttlMs: number;
  now?: () => number;
}

/**
 * API-key records by digest, kept in memory: every authenticated request needs one. Unknown
 * digests are never cached, so junk keys cannot fill the map. A revocation through here drops its
 * entry at once; other instances (PostgreSQL) keep serving the key until their TTL runs out.
 */
export class CachedDeveloperRepository extends forwarding<DeveloperRepository>()(['createAccount', 'findById', 'findByEmail', 'listApiKeys', 'addApiKey']) implements DeveloperRepository {
  private readonly keys: LruMap<string, { record: ApiKeyRecord; until: number }>;
  private readonly now: () => number;

  constructor(
    private readonly inner: DeveloperRepository,
    private readonly options: ApiKeyCacheOptions,
  ) {
    super(inner);
    this.keys = new LruMap(options.capacity);
    this.now = options.now ?? Date.now;
  }

  async revokeApiKey(developerId: string, id: string, at: number): Promise<ApiKeyRecord | null> {
    const record = await this.inner.revokeApiKey(developerId, id, at);
    if (record) this.keys.delete(record.keyHash);
    return record;
  }

  /**
   * Written through; the cached record learns the time written, so this instance asks again only a
   * minute later. Not written means the store's time is already within the minute (another instance
   * wrote it): the record is dropped so the next lookup reads that time, else every request of this
   * instance would send the UPDATE again.
   */
  async touchApiKey(keyHash: string, at: number): Promise<boolean> {
    const written = await this.inner.touchApiKey(keyHash, at);
    const cached = this.keys.get(keyHash);
    if (written && cached) cached.record.lastUsedAt = at;
    else if (cached) this.keys.delete(keyHash);
    return written;
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const cached = this.keys.get(keyHash);
    if (cached && (this.options.ttlMs === Infinity || this.now() < cached.until)) return { ...cached.record };
    const record = await this.inner.findApiKeyByHash(keyHash);
    if (record) this.keys.set(keyHash, { record: { ...record }, until: this.now() + this.options.ttlMs });
    return record;
  }
}
