import type { SavedCard } from '../domain/card.ts';

export interface CardRepository {
  /** Saves the card, or refreshes it when this developer already has that payment method. Returns it as stored. */
  save(card: SavedCard): Promise<SavedCard>;
  /** The customer's cards saved with this developer's account, newest first. */
  listFor(customerId: string, developerId: string): Promise<SavedCard[]>;
  findById(id: string): Promise<SavedCard | null>;
}
