import type { SigningKey } from '../domain/developer.ts';

/** One rotation (docs/key-rotation.md): the next key, planned from the head it was endorsed by. */
export interface KeyRotation {
  next: SigningKey;
  /** The head's kid when the rotation was planned: another rotation committed first refuses this one. */
  after: string;
  /** Keys this rotation retires as compromised, each with its successor-signed statement. */
  retired: { kid: string; compromisedAt: number; retirement: string }[];
}

export interface SigningKeyRepository {
  /**
   * The key that signs at `now`: of the keys started by then (notBefore ≤ now) and not compromised,
   * the latest started (then the latest made); when none has started by this clock (one behind the
   * instance that made the key), the first to start. Null when every key is compromised.
   */
  active(developerId: string, now: number): Promise<SigningKey | null>;
  byKid(kid: string): Promise<SigningKey | null>;
  /** The head (newest made) first, then newest first (keys made in the same millisecond: latest made first). */
  list(developerId: string): Promise<SigningKey[]>;
  /**
   * Atomically, only while `after` is still the head: the new key becomes the head and the keys named
   * in `retired` are marked compromised. False, with nothing written, when another rotation came first.
   */
  rotate(rotation: KeyRotation): Promise<boolean>;
}
