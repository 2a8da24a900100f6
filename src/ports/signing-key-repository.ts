import type { SigningKey } from '../domain/developer.ts';

export interface SigningKeyRepository {
  active(developerId: string): Promise<SigningKey | null>;
  byKid(kid: string): Promise<SigningKey | null>;
  /** The active key first, then newest first (keys made in the same millisecond: latest made first). */
  list(developerId: string): Promise<SigningKey[]>;
  /** Atomically: the new key becomes the only active one of its developer. */
  rotate(next: SigningKey): Promise<void>;
}
