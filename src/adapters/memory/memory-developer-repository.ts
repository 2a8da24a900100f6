import type { ApiKeyRecord, Developer } from '../../domain/developer.ts';
import { ConflictError } from '../../domain/errors.ts';
import type { DeveloperRepository, NewAccount } from '../../ports/developer-repository.ts';
import { ConstraintViolation, copy, copyOrNull, type MemoryTables, requireRow, requireUnique } from './memory-tables.ts';

/** Newest first; the same millisecond by id, descending: the SQL adapters' order. */
function newestFirst(a: ApiKeyRecord, b: ApiKeyRecord): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export class MemoryDeveloperRepository implements DeveloperRepository {
  constructor(private readonly tables: MemoryTables) {}

  async createAccount(account: NewAccount): Promise<void> {
    const { developer, apiKeys, signingKey } = account;
    const t = this.tables;
    const emailTaken = [...t.developers.values()].some((d) => d.email === developer.email);
    if (emailTaken) throw new ConflictError('email_taken', 'An account with this e-mail already exists.');
    // Every check before the first write: all or nothing, like the SQLite transaction.
    requireUnique(t.developers.has(developer.id), 'developers.id');
    const hashes = new Set<string>();
    const ids = new Set<string>();
    for (const key of apiKeys) {
      requireUnique(t.apiKeys.has(key.id) || ids.has(key.id), 'api_keys.id');
      requireUnique(this.hashTaken(key.keyHash) || hashes.has(key.keyHash), 'api_keys.key_hash');
      ids.add(key.id);
      hashes.add(key.keyHash);
    }
    requireUnique(t.signingKeys.has(signingKey.kid), 'signing_keys.kid');
    this.requireOwner(apiKeys.map((k) => k.developerId).concat(signingKey.developerId), developer.id);
    t.developers.set(developer.id, copy(developer));
    for (const key of apiKeys) t.apiKeys.set(key.id, copy(key));
    t.signingKeys.set(signingKey.kid, copy(signingKey));
  }

  async findById(id: string): Promise<Developer | null> {
    return copyOrNull(this.tables.developers.get(id));
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return copyOrNull([...this.tables.apiKeys.values()].find((k) => k.keyHash === keyHash));
  }

  async listApiKeys(developerId: string): Promise<ApiKeyRecord[]> {
    return [...this.tables.apiKeys.values()].filter((k) => k.developerId === developerId).sort(newestFirst).map(copy);
  }

  async addApiKey(record: ApiKeyRecord): Promise<void> {
    requireUnique(this.tables.apiKeys.has(record.id), 'api_keys.id');
    requireUnique(this.hashTaken(record.keyHash), 'api_keys.key_hash');
    requireRow(this.tables.developers, record.developerId, 'api_keys.developer_id');
    this.tables.apiKeys.set(record.id, copy(record));
  }

  async revokeApiKey(developerId: string, id: string, at: number): Promise<ApiKeyRecord | null> {
    const key = this.tables.apiKeys.get(id);
    if (!key || key.developerId !== developerId) return null;
    const otherSecret = [...this.tables.apiKeys.values()].some(
      (k) => k.developerId === developerId && k.id !== id && k.scope === 'secret' && k.revokedAt === null,
    );
    if (key.scope !== 'secret' || otherSecret) key.revokedAt ??= at;
    return copy(key);
  }

  private hashTaken(keyHash: string): boolean {
    return [...this.tables.apiKeys.values()].some((k) => k.keyHash === keyHash);
  }

  private requireOwner(developerIds: string[], newId: string): void {
    for (const id of developerIds) {
      if (id !== newId && !this.tables.developers.has(id)) {
        throw new ConstraintViolation('foreign_key', 'developer_id');
      }
    }
  }
}
