import { and, eq, isNull } from 'drizzle-orm';
import type { IdentityToken } from '../../domain/identity-token.ts';
import type { IdentityTokenRepository } from '../../ports/identity-token-repository.ts';
import { identityTokens } from './schema.ts';
import type { SqliteDb } from './sqlite-store.ts';
import { deleteEndedTokens } from './sqlite-retention.ts';

export class SqliteIdentityTokenRepository implements IdentityTokenRepository {
  constructor(private readonly db: SqliteDb) {}

  async create(token: IdentityToken): Promise<void> {
    this.db.insert(identityTokens).values(token).run();
  }

  async findByHash(tokenHash: string): Promise<IdentityToken | null> {
    return this.db.select().from(identityTokens).where(eq(identityTokens.tokenHash, tokenHash)).get() ?? null;
  }

  async revoke(tokenHash: string, at: number): Promise<void> {
    // The first revocation's time stays: a repeated logout changes nothing.
    this.db
      .update(identityTokens)
      .set({ revokedAt: at })
      .where(and(eq(identityTokens.tokenHash, tokenHash), isNull(identityTokens.revokedAt)))
      .run();
  }

  async deleteEnded(before: number, limit: number): Promise<number> {
    return deleteEndedTokens(this.db, before, limit);
  }
}
