import { and, asc, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { ChallengePurpose, ConsoleSession, Passkey, WebAuthnChallenge } from '../../../domain/console-session.ts';
import type { ConsoleSessionRepository } from '../../../ports/console-session-repository.ts';
import type { PasskeyRepository } from '../../../ports/passkey-repository.ts';
import { deleteBatch } from '../retention.ts';
import { oneOrNull, type SqlStore } from '../sql-store.ts';

/**
 * Revokes the developer's row (a session or a passkey): the first revocation time stays. False when
 * the id is unknown or another developer's, so the caller answers 404 for both.
 */
async function revokeOwned(
  store: SqlStore,
  table: SqlStore['tables']['consoleSessions'] | SqlStore['tables']['passkeys'],
  developerId: string,
  id: string,
  at: number,
): Promise<boolean> {
  const [found] = await store.db
    .update(table as SqlStore['tables']['passkeys'])
    .set({ revokedAt: sql`COALESCE(${table.revokedAt}, ${store.dialect.bound(at, 'bigint')})` })
    .where(and(eq(table.id, id), eq(table.developerId, developerId)))
    .returning({ id: table.id });
  return found !== undefined;
}

// Every use-once or compare-and-set write below is one conditional statement: SQLite applies it
// atomically (one writer), PostgreSQL locks the row for it, so of concurrent callers one wins.
export class DrizzleConsoleSessionRepository implements ConsoleSessionRepository {
  constructor(private readonly store: SqlStore) {}

  async create(session: ConsoleSession): Promise<void> {
    await this.store.db.insert(this.store.tables.consoleSessions).values(session);
  }

  async findByHash(tokenHash: string): Promise<ConsoleSession | null> {
    const { consoleSessions } = this.store.tables;
    return oneOrNull(this.store.db.select().from(consoleSessions).where(eq(consoleSessions.tokenHash, tokenHash)));
  }

  async touch(id: string, at: number, since: number): Promise<void> {
    const { consoleSessions } = this.store.tables;
    await this.store.db.update(consoleSessions).set({ lastUsedAt: at }).where(and(eq(consoleSessions.id, id), lt(consoleSessions.lastUsedAt, since)));
  }

  async listLive(developerId: string, now: number, idleMs: number): Promise<ConsoleSession[]> {
    const { consoleSessions: s } = this.store.tables;
    return this.store.db
      .select()
      .from(s)
      .where(and(eq(s.developerId, developerId), isNull(s.revokedAt), gt(s.expiresAt, now), gt(s.lastUsedAt, now - idleMs)))
      .orderBy(desc(s.createdAt), desc(s.id));
  }

  revoke(developerId: string, id: string, at: number): Promise<boolean> {
    return revokeOwned(this.store, this.store.tables.consoleSessions, developerId, id, at);
  }

  async revokeAll(developerId: string, at: number): Promise<void> {
    const { consoleSessions: s } = this.store.tables;
    await this.store.db.update(s).set({ revokedAt: at }).where(and(eq(s.developerId, developerId), isNull(s.revokedAt)));
  }

  async deleteEnded(before: number, limit: number): Promise<number> {
    const { consoleSessions: s } = this.store.tables;
    return deleteBatch(this.store, s, s.id, or(lt(s.expiresAt, before), lt(s.revokedAt, before)), limit);
  }
}

type PasskeyRow = Omit<Passkey, 'transports'> & { transports: string; slot: number };
const fromRow = ({ slot: _slot, ...row }: PasskeyRow): Passkey => ({ ...row, transports: JSON.parse(row.transports) as string[] });

/** The lowest of the places 0 … max-1 not held, or null when all are. */
function freeSlot(held: number[], max: number): number | null {
  const taken = new Set(held);
  for (let slot = 0; slot < max; slot++) if (!taken.has(slot)) return slot;
  return null;
}

export class DrizzlePasskeyRepository implements PasskeyRepository {
  constructor(private readonly store: SqlStore) {}

  /**
   * The passkey in the lowest place its seller has free: the unique (developer, place) of live
   * passkeys refuses a second writer of the same place, who then looks again (each round another
   * writer took a place, so at most `max` rounds).
   */
  async add(passkey: Passkey, max: number): Promise<boolean> {
    const { db, tables: { passkeys: p } } = this.store;
    for (let round = 0; round <= max; round++) {
      const held = await db.select({ slot: p.slot }).from(p).where(and(eq(p.developerId, passkey.developerId), isNull(p.revokedAt)));
      const slot = freeSlot(held.map((row) => row.slot), max);
      if (slot === null) return false;
      const added = await db.insert(p).values({ ...passkey, transports: JSON.stringify(passkey.transports), slot }).onConflictDoNothing().returning({ id: p.id });
      if (added.length === 1) return true;
      if (await this.findByCredentialId(passkey.credentialId)) throw new Error('passkeys: the credential is registered already');
    }
    return false;
  }

  async findByCredentialId(credentialId: string): Promise<Passkey | null> {
    const { passkeys } = this.store.tables;
    const row = await oneOrNull(this.store.db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)));
    return row && fromRow(row);
  }

  async listActive(developerId: string): Promise<Passkey[]> {
    const { passkeys: p } = this.store.tables;
    const rows = await this.store.db.select().from(p).where(and(eq(p.developerId, developerId), isNull(p.revokedAt))).orderBy(asc(p.createdAt), asc(p.id));
    return rows.map(fromRow);
  }

  revoke(developerId: string, id: string, at: number): Promise<boolean> {
    return revokeOwned(this.store, this.store.tables.passkeys, developerId, id, at);
  }

  async recordUse(id: string, from: number, to: number, at: number): Promise<boolean> {
    const { passkeys: p } = this.store.tables;
    const rows = await this.store.db
      .update(p)
      .set({ counter: to, lastUsedAt: at })
      .where(and(eq(p.id, id), eq(p.counter, from), isNull(p.revokedAt)))
      .returning({ id: p.id });
    return rows.length === 1;
  }

  async createChallenge(challenge: WebAuthnChallenge): Promise<void> {
    await this.store.db.insert(this.store.tables.webauthnChallenges).values(challenge);
  }

  async takeChallenge(purpose: ChallengePurpose, match: { id: string } | { challenge: string; developerId: string }, at: number): Promise<WebAuthnChallenge | null> {
    const { webauthnChallenges: c } = this.store.tables;
    const which = 'id' in match ? eq(c.id, match.id) : and(eq(c.challenge, match.challenge), eq(c.developerId, match.developerId));
    const [row] = await this.store.db
      .update(c)
      .set({ usedAt: at })
      .where(and(which, eq(c.purpose, purpose), isNull(c.usedAt), gt(c.expiresAt, at)))
      .returning();
    return row ?? null;
  }

  async deleteExpiredChallenges(before: number, limit: number): Promise<number> {
    const { webauthnChallenges: c } = this.store.tables;
    return deleteBatch(this.store, c, c.id, lt(c.expiresAt, before), limit);
  }
}
