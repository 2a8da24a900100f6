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
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
}
