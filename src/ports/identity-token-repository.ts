import type { IdentityToken } from '../domain/identity-token.ts';

export interface IdentityTokenRepository {
  create(token: IdentityToken): Promise<void>;
  findByHash(tokenHash: string): Promise<IdentityToken | null>;
  revoke(tokenHash: string, at: number): Promise<void>;
}
