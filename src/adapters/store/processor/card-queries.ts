import { and, desc, eq } from 'drizzle-orm';
import type { SavedCard } from '../../../domain/card.ts';
import type { CardRepository } from '../../../ports/card-repository.ts';
import { oneOrNull, type SharedTables, type SqlStore } from '../sql-store.ts';

/** A card's columns: not PostgreSQL's `seq`, which SQLite keeps as the rowid. */
function cardColumns({ savedCards }: SharedTables) {
  const { id, customerId, developerId, processorCustomerId, processorPaymentMethodId, brand, last4, expMonth, expYear, phone, createdAt } = savedCards;
  return { id, customerId, developerId, processorCustomerId, processorPaymentMethodId, brand, last4, expMonth, expYear, phone, createdAt };
}

export class DrizzleCardRepository implements CardRepository {
  private readonly columns;

  constructor(private readonly store: SqlStore) {
    this.columns = cardColumns(store.tables);
  }

  async save(card: SavedCard): Promise<SavedCard> {
    const { savedCards } = this.store.tables;
    const { brand, last4, expMonth, expYear, processorCustomerId } = card;
    // The first save keeps its id and createdAt; a later save of the same payment method refreshes the details.
    const [stored] = await this.store.db
      .insert(savedCards)
      .values(card)
      .onConflictDoUpdate({
        target: [savedCards.developerId, savedCards.processorPaymentMethodId],
        set: { brand, last4, expMonth, expYear, processorCustomerId },
      })
      .returning(this.columns);
    return stored!;
  }

  async findById(id: string): Promise<SavedCard | null> {
    const { savedCards } = this.store.tables;
    return oneOrNull(this.store.db.select(this.columns).from(savedCards).where(eq(savedCards.id, id)));
  }

  async listFor(customerId: string, developerId: string): Promise<SavedCard[]> {
    const { db, tables: { savedCards }, dialect } = this.store;
    // Cards made at the same time list the later saved first.
    return db
      .select(this.columns)
      .from(savedCards)
      .where(and(eq(savedCards.customerId, customerId), eq(savedCards.developerId, developerId)))
      .orderBy(desc(savedCards.createdAt), desc(dialect.insertionOrder(savedCards)));
  }
}
