import type { ChallengePurpose, Passkey, WebAuthnChallenge } from '../domain/console-session.ts';

/** Sellers' passkeys and the single-use challenges of their ceremonies. */
export interface PasskeyRepository {
  /**
   * Adds the passkey while its developer has fewer than `max` live ones (the store holds the cap
   * however many registrations race); false when they have `max`. Throws on a credential id
   * registered already (a storage error: the caller checked first).
   */
  add(passkey: Passkey, max: number): Promise<boolean>;
  findByCredentialId(credentialId: string): Promise<Passkey | null>;
  /** The developer's passkeys not revoked, oldest first. */
  listActive(developerId: string): Promise<Passkey[]>;
  /** Revokes this developer's passkey; false for an unknown id or another developer's passkey. */
  revoke(developerId: string, id: string, at: number): Promise<boolean>;
  /**
   * A sign-in with the passkey: the counter moves from `from` to `to`, only while it is still `from`
   * and the passkey is not revoked (one conditional update: of two uses of one assertion, one wins).
   */
  recordUse(id: string, from: number, to: number, at: number): Promise<boolean>;
  createChallenge(challenge: WebAuthnChallenge): Promise<void>;
  /**
   * Uses the challenge up: the challenge for exactly one caller while unused and live at `at`, else
   * null. Found by its id (sign-in), or by its value and developer (registration: the browser's answer
   * carries the value).
   */
  takeChallenge(purpose: ChallengePurpose, match: { id: string } | { challenge: string; developerId: string }, at: number): Promise<WebAuthnChallenge | null>;
  /** Retention: deletes up to `limit` challenges that expired before `before`; returns how many. */
  deleteExpiredChallenges(before: number, limit: number): Promise<number>;
}
