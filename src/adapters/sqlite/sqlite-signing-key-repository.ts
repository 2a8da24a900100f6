import { and, desc, eq, sql } from 'drizzle-orm';
import type { SigningKey } from '../../domain/developer.ts';
import type { SigningKeyRepository } from '../../ports/signing-key-repository.ts';
import { signingKeys } from './schema.ts';
import type { SqliteDb } from './sqlite-store.ts';

export class SqliteSigningKeyRepository implements SigningKeyRepository {
  constructor(private readonly db: SqliteDb) {}

  async active(developerId: string): Promise<SigningKey | null> {
    return (
      this.db
        .select()
        .from(signingKeys)
        .where(and(eq(signingKeys.developerId, developerId), eq(signingKeys.active, true)))
        .get() ?? null
    );
  }

  async byKid(kid: string): Promise<SigningKey | null> {
    return this.db.select().from(signingKeys).where(eq(signingKeys.kid, kid)).get() ?? null;
  }

  async list(developerId: string): Promise<SigningKey[]> {
    return this.db
      .select()
      .from(signingKeys)
      .where(eq(signingKeys.developerId, developerId))
      .orderBy(desc(signingKeys.active), desc(signingKeys.createdAt), desc(sql`rowid`))
      .all();
  }

  async rotate(next: SigningKey): Promise<void> {
    this.db.transaction((tx) => {
      tx.update(signingKeys).set({ active: false }).where(eq(signingKeys.developerId, next.developerId)).run();
      tx.insert(signingKeys).values({ ...next, active: true }).run();
    });
  }
}
