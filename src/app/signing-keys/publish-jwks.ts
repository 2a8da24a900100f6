import { NotFoundError } from '../../domain/errors.ts';
import type { Deps } from '../../ports/deps.ts';

export interface Jwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

/** Every public key of a developer, newest first, as a JWK Set (RFC 7517, RFC 8037). */
export async function publishJwks(
  deps: Pick<Deps, 'developers' | 'signingKeys'>,
  developerId: string,
): Promise<{ keys: Jwk[] }> {
  const keys = await deps.signingKeys.list(developerId);
  if (keys.length === 0) throw new NotFoundError('developer');
  return {
    keys: keys.map((k) => ({ kty: 'OKP', crv: 'Ed25519', x: k.publicKey, kid: k.kid, alg: 'EdDSA', use: 'sig' })),
  };
}
