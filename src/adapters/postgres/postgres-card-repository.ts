import { and, desc, eq } from 'drizzle-orm';
import type { SavedCard } from '../../domain/card.ts';
import type { CardRepository } from '../../ports/card-repository.ts';
import { savedCards } from './schema.ts';
import type { PostgresDb } from './postgres-store.ts';

const cardColumns = {
  id: savedCards.id,
  customerId: savedCards.customerId,
  developerId: savedCards.developerId,
  processorCustomerId: savedCards.processorCustomerId,
  processorPaymentMethodId: savedCards.processorPaymentMethodId,
  brand: savedCards.brand,
  last4: savedCards.last4,
  expMonth: savedCards.expMonth,
  expYear: savedCards.expYear,
  phone: savedCards.phone,
  createdAt: savedCards.createdAt,
};

export class PostgresCardRepository implements CardRepository {
  constructor(private readonly db: PostgresDb) {}

  async save(card: SavedCard): Promise<SavedCard> {
    const { brand, last4, expMonth, expYear, processorCustomerId } = card;
    // The first save keeps its id and createdAt; a later save of the same payment method refreshes the details.
    const [stored] = await this.db
      .insert(savedCards)
      .values(card)
      .onConflictDoUpdate({
        target: [savedCards.developerId, savedCards.processorPaymentMethodId],
        set: { brand, last4, expMonth, expYear, processorCustomerId },
      })
      .returning(cardColumns);
    return stored!;
  }

  async findById(id: string): Promise<SavedCard | null> {
    const [row] = await this.db.select(cardColumns).from(savedCards).where(eq(savedCards.id, id));
    return row ?? null;
  }

  async listFor(customerId: string, developerId: string): Promise<SavedCard[]> {
    // `seq` is the insertion order, SQLite's rowid: cards made at the same time list the later saved first.
    return this.db
      .select(cardColumns)
      .from(savedCards)
      .where(and(eq(savedCards.customerId, customerId), eq(savedCards.developerId, developerId)))
      .orderBy(desc(savedCards.createdAt), desc(savedCards.seq));
  }
}
