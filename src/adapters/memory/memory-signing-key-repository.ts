import type { SigningKey } from '../../domain/developer.ts';
import type { SigningKeyRepository } from '../../ports/signing-key-repository.ts';
import { copy, copyOrNull, type MemoryTables, requireRow, requireUnique } from './memory-tables.ts';

/** The active key first, then newest first; ties keep reverse insertion order (a stable sort): the SQLite order. */
function newestFirst(a: SigningKey, b: SigningKey): number {
  if (a.active !== b.active) return a.active ? -1 : 1;
  return b.createdAt - a.createdAt;
}

export class MemorySigningKeyRepository implements SigningKeyRepository {
  constructor(private readonly tables: MemoryTables) {}

  async active(developerId: string): Promise<SigningKey | null> {
    return copyOrNull(this.keysOf(developerId).find((k) => k.active));
  }

  async byKid(kid: string): Promise<SigningKey | null> {
    return copyOrNull(this.tables.signingKeys.get(kid));
  }

  async list(developerId: string): Promise<SigningKey[]> {
    return this.keysOf(developerId).reverse().sort(newestFirst).map(copy);
  }

  async rotate(next: SigningKey): Promise<void> {
    requireUnique(this.tables.signingKeys.has(next.kid), 'signing_keys.kid');
    requireRow(this.tables.developers, next.developerId, 'signing_keys.developer_id');
    for (const key of this.keysOf(next.developerId)) key.active = false;
    this.tables.signingKeys.set(next.kid, { ...copy(next), active: true });
  }

  private keysOf(developerId: string): SigningKey[] {
    return [...this.tables.signingKeys.values()].filter((k) => k.developerId === developerId);
  }
}
