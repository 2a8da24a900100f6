import type { ApiKeyRecord, Developer, SigningKey } from '../domain/developer.ts';

export interface NewAccount {
  developer: Developer;
  apiKeys: ApiKeyRecord[];
  signingKey: SigningKey;
}

export interface DeveloperRepository {
  /** All or nothing; throws `email_taken` when the e-mail already has an account. */
  createAccount(account: NewAccount): Promise<void>;
  findById(id: string): Promise<Developer | null>;
  /** The account with this normalized e-mail (console sign-in). */
  findByEmail(email: string): Promise<Developer | null>;
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  /** Records a use of the key at `at`: written only when its lastUsedAt is unset or a minute older (one write a minute at most); whether it was. */
  touchApiKey(keyHash: string, at: number): Promise<boolean>;
  /** Newest first (keys made in the same millisecond: by id, descending), revoked ones included. */
  listApiKeys(developerId: string): Promise<ApiKeyRecord[]>;
  /** Throws on a taken id or digest (a storage error, not a domain one). */
  addApiKey(record: ApiKeyRecord): Promise<void>;
  /**
   * Sets `revokedAt` to `at` unless the key is revoked already (the first time stays), and unless it
   * is the developer's last active secret key: that one is kept, and comes back with `revokedAt`
   * null. The rule holds under concurrent revocations (two revokes of a developer's two secret keys
   * leave one). Returns the record as stored; null for an unknown id or another developer's key.
   */
  revokeApiKey(developerId: string, id: string, at: number): Promise<ApiKeyRecord | null>;
}
