import { and, eq, isNull } from 'drizzle-orm';
import type { IdentityToken } from '../../../domain/identity-token.ts';
import type { IdentityTokenRepository } from '../../../ports/identity-token-repository.ts';
import { deleteEndedTokens } from '../retention.ts';
import { oneOrNull, type SqlStore } from '../sql-store.ts';

export class DrizzleIdentityTokenRepository implements IdentityTokenRepository {
  constructor(private readonly store: SqlStore) {}

  async create(token: IdentityToken): Promise<void> {
    const { db, tables } = this.store;
    await db.insert(tables.identityTokens).values(token);
  }

  async findByHash(tokenHash: string): Promise<IdentityToken | null> {
    const { identityTokens } = this.store.tables;
    return oneOrNull(this.store.db.select().from(identityTokens).where(eq(identityTokens.tokenHash, tokenHash)));
  }

  async revoke(tokenHash: string, at: number): Promise<void> {
    const { identityTokens } = this.store.tables;
    // The first revocation's time stays: a repeated logout changes nothing.
    await this.store.db
      .update(identityTokens)
      .set({ revokedAt: at })
      .where(and(eq(identityTokens.tokenHash, tokenHash), isNull(identityTokens.revokedAt)));
  }

  async deleteEnded(before: number, limit: number): Promise<number> {
    return deleteEndedTokens(this.store, before, limit);
  }
}
