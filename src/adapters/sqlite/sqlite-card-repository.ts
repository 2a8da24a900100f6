import { and, desc, eq, sql } from 'drizzle-orm';
import type { SavedCard } from '../../domain/card.ts';
import type { CardRepository } from '../../ports/card-repository.ts';
import { savedCards } from './schema.ts';
import type { SqliteDb } from './sqlite-store.ts';

export class SqliteCardRepository implements CardRepository {
  constructor(private readonly db: SqliteDb) {}

  async save(card: SavedCard): Promise<SavedCard> {
    const { brand, last4, expMonth, expYear, processorCustomerId } = card;
    // The first save keeps its id and createdAt; a later save of the same payment method refreshes the details.
    this.db
      .insert(savedCards)
      .values(card)
      .onConflictDoUpdate({
        target: [savedCards.developerId, savedCards.processorPaymentMethodId],
        set: { brand, last4, expMonth, expYear, processorCustomerId },
      })
      .run();
    return this.db
      .select()
      .from(savedCards)
      .where(and(eq(savedCards.developerId, card.developerId), eq(savedCards.processorPaymentMethodId, card.processorPaymentMethodId)))
      .get()!;
  }

  async findById(id: string): Promise<SavedCard | null> {
    return this.db.select().from(savedCards).where(eq(savedCards.id, id)).get() ?? null;
  }

  async listFor(customerId: string, developerId: string): Promise<SavedCard[]> {
    return this.db
      .select()
      .from(savedCards)
      .where(and(eq(savedCards.customerId, customerId), eq(savedCards.developerId, developerId)))
      .orderBy(desc(savedCards.createdAt), desc(sql`rowid`))
      .all();
  }
}
