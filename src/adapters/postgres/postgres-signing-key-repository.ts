import { and, desc, eq } from 'drizzle-orm';
import type { SigningKey } from '../../domain/developer.ts';
import type { SigningKeyRepository } from '../../ports/signing-key-repository.ts';
import { developers, signingKeys } from './schema.ts';
import type { PostgresDb } from './postgres-store.ts';

const keyColumns = {
  kid: signingKeys.kid,
  developerId: signingKeys.developerId,
  publicKey: signingKeys.publicKey,
  sealedPrivateKey: signingKeys.sealedPrivateKey,
  createdAt: signingKeys.createdAt,
  active: signingKeys.active,
};

export class PostgresSigningKeyRepository implements SigningKeyRepository {
  constructor(private readonly db: PostgresDb) {}

  async active(developerId: string): Promise<SigningKey | null> {
    const [row] = await this.db
      .select(keyColumns)
      .from(signingKeys)
      .where(and(eq(signingKeys.developerId, developerId), eq(signingKeys.active, true)));
    return row ?? null;
  }

  async byKid(kid: string): Promise<SigningKey | null> {
    const [row] = await this.db.select(keyColumns).from(signingKeys).where(eq(signingKeys.kid, kid));
    return row ?? null;
  }

  async list(developerId: string): Promise<SigningKey[]> {
    // `seq` is the insertion order, SQLite's rowid: keys made in the same millisecond list the latest first.
    return this.db
      .select(keyColumns)
      .from(signingKeys)
      .where(eq(signingKeys.developerId, developerId))
      .orderBy(desc(signingKeys.active), desc(signingKeys.createdAt), desc(signingKeys.seq));
  }

  async rotate(next: SigningKey): Promise<void> {
    await this.db.transaction(async (tx) => {
      // Rotations of one developer queue on its row: under READ COMMITTED the UPDATE below then sees
      // the key a rotation before it committed (the partial unique index refuses two active keys anyway).
      await tx.select({ id: developers.id }).from(developers).where(eq(developers.id, next.developerId)).for('update');
      await tx.update(signingKeys).set({ active: false }).where(eq(signingKeys.developerId, next.developerId));
      await tx.insert(signingKeys).values({ ...next, active: true });
    });
  }
}
