import type { IdentityToken } from '../../domain/identity-token.ts';
import type { IdentityTokenRepository } from '../../ports/identity-token-repository.ts';
import { copy, copyOrNull, type MemoryTables, requireRow, requireUnique } from './memory-tables.ts';
import { deleteEndedTokens } from './memory-retention.ts';

export class MemoryIdentityTokenRepository implements IdentityTokenRepository {
  constructor(private readonly tables: MemoryTables) {}

  async create(token: IdentityToken): Promise<void> {
    requireUnique(this.tables.identityTokens.has(token.tokenHash), 'identity_tokens.token_hash');
    requireRow(this.tables.customers, token.customerId, 'identity_tokens.customer_id');
    this.tables.identityTokens.set(token.tokenHash, copy(token));
  }

  async findByHash(tokenHash: string): Promise<IdentityToken | null> {
    return copyOrNull(this.tables.identityTokens.get(tokenHash));
  }

  async revoke(tokenHash: string, at: number): Promise<void> {
    const token = this.tables.identityTokens.get(tokenHash);
    if (token && token.revokedAt === null) token.revokedAt = at;
  }

  async deleteEnded(before: number, limit: number): Promise<number> {
    return deleteEndedTokens(this.tables, before, limit);
  }
}
