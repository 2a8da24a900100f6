import { ConflictError } from '../../domain/errors.ts';
import type { SigningKey } from '../../domain/developer.ts';
import { answerSigningInput, type AnswerContext } from '../../domain/signed-answer.ts';
import { encodeBase64url, utf8 } from '../../domain/base64url.ts';
import type { Deps } from '../../ports/deps.ts';

/** How long an instance keeps signing with the key it last read as active (rotation is seen within this). */
export const ACTIVE_KEY_TTL_MS = 10_000;
const MAX_CACHED_DEVELOPERS = 10_000;

export interface SignedAnswer {
  /** `header..signature`: the JWS with its payload (the body) left out, RFC 7515 appendix F. */
  detached: string;
  /** `header.payload.signature`: the same JWS with the body inside. */
  compact: string;
  serverTime: number;
}

export type AnswerSigner = (developerId: string, body: string, context: Omit<AnswerContext, 'serverTime'>) => Promise<SignedAnswer>;

/**
 * Signs validation and activation answers with the seller's current key. The active key is read at
 * most once per developer every ACTIVE_KEY_TTL_MS (the signer itself keeps the parsed private key),
 * so the hot path adds one Ed25519 signature and no store read. A key rotated on another instance
 * is picked up within the TTL; answers signed with the previous key still verify, as it stays in
 * the JWKS.
 */
export function answerSigner(deps: Pick<Deps, 'clock' | 'signer' | 'signingKeys'>): AnswerSigner {
  const cache = new Map<string, { key: SigningKey; until: number }>();

  async function activeKey(developerId: string, now: number): Promise<SigningKey> {
    const hit = cache.get(developerId);
    if (hit && hit.until > now) return hit.key;
    const key = await deps.signingKeys.active(developerId);
    if (!key) throw new ConflictError('conflict', 'The developer has no active signing key.');
    if (cache.size >= MAX_CACHED_DEVELOPERS) cache.clear();
    cache.set(developerId, { key, until: now + ACTIVE_KEY_TTL_MS });
    return key;
  }

  return async (developerId, body, context) => {
    const serverTime = deps.clock.now();
    const key = await activeKey(developerId, serverTime);
    const { header, payload, input } = answerSigningInput(key.kid, { ...context, serverTime }, body);
    const signature = encodeBase64url(deps.signer.sign(key.sealedPrivateKey, utf8.encode(input)));
    return { detached: `${header}..${signature}`, compact: `${header}.${payload}.${signature}`, serverTime };
  };
}
