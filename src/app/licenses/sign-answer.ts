import { ConflictError } from '../../domain/errors.ts';
import type { SigningKey } from '../../domain/developer.ts';
import { answerHeaderEncoder, type AnswerContext, type AnswerOp } from '../../domain/signed-answer.ts';
import { encodeBase64url, utf8 } from '../../domain/base64url.ts';
import { MAX_CHAIN_STATEMENTS } from '../../domain/key-statements.ts';
import type { Deps } from '../../ports/deps.ts';
import { chainStatements } from '../signing-keys/publish-jwks.ts';

/** How long an instance keeps signing with the key it last read as active (rotation is seen within this). */
export const ACTIVE_KEY_TTL_MS = 10_000;
const MAX_CACHED_DEVELOPERS = 10_000;

export interface SignedAnswer {
  /** `header..signature`: the JWS with its payload (the body) left out, RFC 7515 appendix F. */
  detached: string;
  /** `header.payload.signature`: the same JWS with the body inside. */
  compact: string;
  serverTime: number;
  /** The seller's key endorsements and retirements (docs/key-rotation.md), newest first; empty before any rotation. */
  chain: string[];
}

type Signing = { key: SigningKey; chain: string[]; until: number; headers: Map<AnswerOp, (context: AnswerContext) => string> };

/** A signed answer, or a promise of one when the seller's active key must first be read (at most once per ACTIVE_KEY_TTL_MS). */
export type AnswerSigner = (developerId: string, body: string, context: Omit<AnswerContext, 'serverTime'>) => SignedAnswer | Promise<SignedAnswer>;

/**
 * Signs validation and activation answers with the seller's current key. The active key is read at
 * most once per developer every ACTIVE_KEY_TTL_MS (the signer itself keeps the parsed private key),
 * so the hot path adds one Ed25519 signature and no store read. A key rotated on another instance
 * is picked up within the TTL; answers signed with the previous key still verify, as it stays in
 * the JWKS.
 */
export function answerSigner(deps: Pick<Deps, 'clock' | 'signer' | 'signingKeys'>): AnswerSigner {
  const cache = new Map<string, Signing>();

  async function activeKey(developerId: string, now: number): Promise<Signing> {
    const key = await deps.signingKeys.active(developerId, now);
    if (!key) throw new ConflictError('conflict', 'The developer has no active signing key.');
    // Nothing to follow until the first rotation: a seller with one key adds no read.
    const keys = key.active && key.endorsement === null ? [] : await deps.signingKeys.list(developerId);
    const chain = chainStatements(keys, MAX_CHAIN_STATEMENTS);
    // A staged key takes over at its start, not up to a TTL later.
    const starts = keys.filter((k) => k.notBefore > now && k.compromisedAt === null).map((k) => k.notBefore);
    const until = Math.min(now + ACTIVE_KEY_TTL_MS, ...starts);
    if (cache.size >= MAX_CACHED_DEVELOPERS) cache.clear();
    const signing = { key, chain, until, headers: new Map() };
    cache.set(developerId, signing);
    return signing;
  }

  function signWith(signing: Signing, serverTime: number, body: string, context: Omit<AnswerContext, 'serverTime'>): SignedAnswer {
    let encodeHeader = signing.headers.get(context.op);
    if (!encodeHeader) signing.headers.set(context.op, (encodeHeader = answerHeaderEncoder(signing.key.kid, context.op)));
    const header = encodeHeader({ op: context.op, serverTime, nonce: context.nonce, machineFingerprint: context.machineFingerprint });
    const payload = encodeBase64url(utf8.encode(body));
    const input = `${header}.${payload}`;
    const signature = encodeBase64url(deps.signer.sign(signing.key.sealedPrivateKey, utf8.encode(input)));
    return { detached: `${header}..${signature}`, compact: `${input}.${signature}`, serverTime, chain: signing.chain };
  }

  // The hot path: the key held (no promise), the header's constant part encoded when the key was read
  // (answerHeaderEncoder), the body encoded once, and one Ed25519 signature over `header.payload`'s bytes.
  return (developerId, body, context) => {
    const serverTime = deps.clock.now();
    const hit = cache.get(developerId);
    if (hit && hit.until > serverTime) return signWith(hit, serverTime, body, context);
    return activeKey(developerId, serverTime).then((signing) => signWith(signing, serverTime, body, context));
  };
}
