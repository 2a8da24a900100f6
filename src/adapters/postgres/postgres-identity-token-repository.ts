import { and, eq, isNull } from 'drizzle-orm';
import type { IdentityToken } from '../../domain/identity-token.ts';
import type { IdentityTokenRepository } from '../../ports/identity-token-repository.ts';
import { identityTokens } from './schema.ts';
import type { PostgresDb } from './postgres-store.ts';
import { deleteEndedTokens } from './postgres-retention.ts';

export class PostgresIdentityTokenRepository implements IdentityTokenRepository {
  constructor(private readonly db: PostgresDb) {}

  async create(token: IdentityToken): Promise<void> {
    await this.db.insert(identityTokens).values(token);
  }

  async findByHash(tokenHash: string): Promise<IdentityToken | null> {
    const [row] = await this.db.select().from(identityTokens).where(eq(identityTokens.tokenHash, tokenHash));
    return row ?? null;
  }

  async revoke(tokenHash: string, at: number): Promise<void> {
    // The first revocation's time stays: a repeated logout changes nothing.
    await this.db
      .update(identityTokens)
      .set({ revokedAt: at })
      .where(and(eq(identityTokens.tokenHash, tokenHash), isNull(identityTokens.revokedAt)));
  }

  async deleteEnded(before: number, limit: number): Promise<number> {
    return deleteEndedTokens(this.db, before, limit);
  }
}
