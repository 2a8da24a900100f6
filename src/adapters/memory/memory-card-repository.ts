import type { SavedCard } from '../../domain/card.ts';
import type { CardRepository } from '../../ports/card-repository.ts';
import { copy, copyOrNull, type MemoryTables, requireRow, requireUnique } from './memory-tables.ts';

/** Newest first; ties keep reverse insertion order (a stable sort over reversed rows): the SQLite order. */
const newestFirst = (a: SavedCard, b: SavedCard): number => b.createdAt - a.createdAt;

export class MemoryCardRepository implements CardRepository {
  constructor(private readonly tables: MemoryTables) {}

  async save(card: SavedCard): Promise<SavedCard> {
    const cards = this.tables.savedCards;
    const existing = [...cards.values()].find(
      (c) => c.developerId === card.developerId && c.processorPaymentMethodId === card.processorPaymentMethodId,
    );
    if (existing) {
      // As SQLite's upsert: the first id, customer and createdAt stay; the details are refreshed.
      const { brand, last4, expMonth, expYear, processorCustomerId } = card;
      Object.assign(existing, { brand, last4, expMonth, expYear, processorCustomerId });
      return copy(existing);
    }
    requireUnique(cards.has(card.id), 'saved_cards.id');
    requireRow(this.tables.customers, card.customerId, 'saved_cards.customer_id');
    requireRow(this.tables.developers, card.developerId, 'saved_cards.developer_id');
    cards.set(card.id, copy(card));
    return copy(card);
  }

  async findById(id: string): Promise<SavedCard | null> {
    return copyOrNull(this.tables.savedCards.get(id));
  }

  async listFor(customerId: string, developerId: string): Promise<SavedCard[]> {
    return [...this.tables.savedCards.values()]
      .filter((c) => c.customerId === customerId && c.developerId === developerId)
      .reverse()
      .sort(newestFirst)
      .map(copy);
  }
}
