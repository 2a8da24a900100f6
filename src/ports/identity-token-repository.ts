import type { IdentityToken } from '../domain/identity-token.ts';

export interface IdentityTokenRepository {
  create(token: IdentityToken): Promise<void>;
  findByHash(tokenHash: string): Promise<IdentityToken | null>;
  revoke(tokenHash: string, at: number): Promise<void>;
  /** Retention: deletes up to `limit` tokens that expired, or were revoked, before `before`; returns how many. */
  deleteEnded(before: number, limit: number): Promise<number>;
}
