import { and, asc, desc, eq, isNull, lte } from 'drizzle-orm';
import type { SigningKey } from '../../../domain/developer.ts';
import type { KeyRotation, SigningKeyRepository } from '../../../ports/signing-key-repository.ts';
import { oneOrNull, type SharedTables, type SqlStore } from '../sql-store.ts';

/** A key's columns: not PostgreSQL's `seq`, which SQLite keeps as the rowid. */
function keyColumns({ signingKeys }: SharedTables) {
  const { kid, developerId, publicKey, sealedPrivateKey, createdAt, active, notBefore, endorsement, compromisedAt, retirement } = signingKeys;
  return { kid, developerId, publicKey, sealedPrivateKey, createdAt, active, notBefore, endorsement, compromisedAt, retirement };
}

export class DrizzleSigningKeyRepository implements SigningKeyRepository {
  private readonly columns;

  constructor(private readonly store: SqlStore) {
    this.columns = keyColumns(store.tables);
  }

  async active(developerId: string, now: number): Promise<SigningKey | null> {
    const { db, tables: { signingKeys }, dialect } = this.store;
    const usable = and(eq(signingKeys.developerId, developerId), isNull(signingKeys.compromisedAt));
    const started = await oneOrNull(
      db
        .select(this.columns)
        .from(signingKeys)
        .where(and(usable, lte(signingKeys.notBefore, now)))
        .orderBy(desc(signingKeys.notBefore), desc(signingKeys.createdAt), desc(dialect.insertionOrder(signingKeys)))
        .limit(1),
    );
    // A clock behind the one that made the key (another instance, a test clock): the first to start.
    return started ?? oneOrNull(db.select(this.columns).from(signingKeys).where(usable).orderBy(asc(signingKeys.notBefore), desc(signingKeys.createdAt)).limit(1));
  }

  async byKid(kid: string): Promise<SigningKey | null> {
    const { signingKeys } = this.store.tables;
    return oneOrNull(this.store.db.select(this.columns).from(signingKeys).where(eq(signingKeys.kid, kid)));
  }

  async list(developerId: string): Promise<SigningKey[]> {
    const { db, tables: { signingKeys }, dialect } = this.store;
    // Keys made in the same millisecond list the latest made first.
    return db
      .select(this.columns)
      .from(signingKeys)
      .where(eq(signingKeys.developerId, developerId))
      .orderBy(desc(signingKeys.active), desc(signingKeys.createdAt), desc(dialect.insertionOrder(signingKeys)));
  }

  async rotate(rotation: KeyRotation): Promise<boolean> {
    return this.store.transactions.rotateSigningKey(rotation);
  }
}
