import type { SigningKey } from '../domain/developer.ts';

export interface SigningKeyRepository {
  active(developerId: string): Promise<SigningKey | null>;
  byKid(kid: string): Promise<SigningKey | null>;
  /** Newest first. */
  list(developerId: string): Promise<SigningKey[]>;
  /** Atomically: the new key becomes the only active one of its developer. */
  rotate(next: SigningKey): Promise<void>;
}
