import type { ApiKeyRecord, Developer } from '../../domain/developer.ts';
import type { DeveloperRepository, NewAccount } from '../../ports/developer-repository.ts';
import { LruMap } from './lru-map.ts';

/**
 * API-key records by digest, kept in memory: every authenticated request needs one, and they change
 * only through this process (the SQLite store owns its file). Unknown digests are never cached, so
 * junk keys cannot fill the map. A future key revocation must go through here and drop its entry.
 */
export class CachedDeveloperRepository implements DeveloperRepository {
  private readonly keys: LruMap<string, ApiKeyRecord>;

  constructor(
    private readonly inner: DeveloperRepository,
    capacity: number,
  ) {
    this.keys = new LruMap(capacity);
  }

  createAccount(account: NewAccount): Promise<void> {
    return this.inner.createAccount(account);
  }

  findById(id: string): Promise<Developer | null> {
    return this.inner.findById(id);
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const cached = this.keys.get(keyHash);
    if (cached) return { ...cached };
    const record = await this.inner.findApiKeyByHash(keyHash);
    if (record) this.keys.set(keyHash, { ...record });
    return record;
  }
}
