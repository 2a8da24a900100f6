import { NotFoundError } from '../../domain/errors.ts';
import { keyStatus, type KeyStatus } from '../../domain/key-statements.ts';
import type { Deps } from '../../ports/deps.ts';

export interface Jwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
  /** Members past RFC 7517's, which JOSE libraries ignore (docs/key-rotation.md). */
  status: KeyStatus;
  notBefore: number;
  /** The key before it vouching for this one; absent on the seller's first key. */
  endorsement?: string;
  compromisedAt?: number;
  /** The successor's signed statement that this key is compromised. */
  retirement?: string;
}

/** Every public key of a developer, newest first, as a JWK Set (RFC 7517, RFC 8037), with each key's place in the rotation. */
export async function publishJwks(
  deps: Pick<Deps, 'clock' | 'developers' | 'signingKeys'>,
  developerId: string,
): Promise<{ keys: Jwk[] }> {
  const now = deps.clock.now();
  const keys = await deps.signingKeys.list(developerId);
  if (keys.length === 0) throw new NotFoundError('developer');
  const signing = (await deps.signingKeys.active(developerId, now))?.kid ?? null;
  return {
    keys: keys.map((k) => ({
      kty: 'OKP',
      crv: 'Ed25519',
      x: k.publicKey,
      kid: k.kid,
      alg: 'EdDSA',
      use: 'sig',
      status: keyStatus(k, signing, now),
      notBefore: k.notBefore,
      ...(k.endorsement !== null && { endorsement: k.endorsement }),
      ...(k.compromisedAt !== null && { compromisedAt: k.compromisedAt }),
      ...(k.retirement !== null && { retirement: k.retirement }),
    })),
  };
}

/** The signed statements of a seller's keys, newest first: what an application needs to follow its rotations. */
export function chainStatements(keys: { endorsement: string | null; retirement: string | null }[], limit: number): string[] {
  return keys.flatMap((k) => [k.retirement, k.endorsement]).filter((s): s is string => s !== null).slice(0, limit);
}
