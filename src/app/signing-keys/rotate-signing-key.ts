import type { SigningKey } from '../../domain/developer.ts';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../domain/errors.ts';
import {
  assembleStatement,
  endorsementSigningInput,
  keyStatus,
  MAX_ROTATION_LEAD_MS,
  retirementSigningInput,
  type KeyStatus,
} from '../../domain/key-statements.ts';
import { utf8 } from '../../domain/base64url.ts';
import type { Deps } from '../../ports/deps.ts';
import { newSigningKey } from './new-signing-key.ts';

export interface RotationRequest {
  /**
   * When the new key starts signing (ms; a time past means now). Default now: new licenses are signed
   * with the new key at once, as the API always promised; the CLI stages by default (ROTATION_LEAD_MS).
   * Not with `compromised`.
   */
  notBefore?: number;
  /** The signing key (and any key still waiting to start) is retired as compromised; the new key signs at once. */
  compromised?: boolean;
}

export interface RotatedKey {
  kid: string;
  publicKey: string;
  notBefore: number;
  status: KeyStatus;
  /** The key whose endorsement vouches for the new one. */
  endorsedBy: string;
  /** The keys retired as compromised by this rotation. */
  compromised: string[];
}

type RotateDeps = Pick<Deps, 'clock' | 'ids' | 'signer' | 'signingKeys'>;

/**
 * docs/key-rotation.md: the next key is endorsed by the key before it and published ahead of the
 * time it starts signing, so applications already shipped follow it. A compromised rotation starts
 * the new key now and has it sign the retirement of the keys it replaces.
 */
export async function rotateSigningKey(deps: RotateDeps, developerId: string, request: RotationRequest = {}): Promise<RotatedKey> {
  const now = deps.clock.now();
  const keys = await deps.signingKeys.list(developerId);
  const head = keys.find((k) => k.active);
  if (!head) throw new NotFoundError('developer');
  const current = await deps.signingKeys.active(developerId, now);
  const plan = request.compromised === true ? compromisedPlan(request, keys, current, now) : stagedPlan(request, head, now);
  const next = newSigningKey(deps, developerId, {
    notBefore: plan.notBefore,
    endorse: ({ kid, publicKey }) => sign(deps, plan.endorser, endorsementSigningInput(plan.endorser.kid, { sub: developerId, kid, x: publicKey, notBefore: plan.notBefore, iat: now })),
  });
  const retired = plan.retire.map((k) => ({
    kid: k.kid,
    compromisedAt: now,
    retirement: sign(deps, next, retirementSigningInput(next.kid, { sub: developerId, kid: k.kid, compromisedAt: now, successor: next.kid })),
  }));
  if (!(await deps.signingKeys.rotate({ next, after: head.kid, retired }))) {
    throw new ConflictError('conflict', 'Another rotation of this signing key finished first; list the JWKS and rotate again if still needed.');
  }
  const status = keyStatus(next, next.notBefore <= now ? next.kid : (current?.kid ?? null), now);
  return { kid: next.kid, publicKey: next.publicKey, notBefore: next.notBefore, status, endorsedBy: plan.endorser.kid, compromised: retired.map((r) => r.kid) };
}

type Plan = { notBefore: number; endorser: SigningKey; retire: SigningKey[] };

/** An ordinary rotation: one key waits at a time, endorsed by the newest key. */
function stagedPlan(request: RotationRequest, head: SigningKey, now: number): Plan {
  if (head.notBefore > now) {
    throw new ConflictError('conflict', `Key ${head.kid} is already waiting to start signing at ${new Date(head.notBefore).toISOString()}; rotate again after that, or rotate with compromised: true.`);
  }
  // A time already past starts the key now: it cannot have signed before it existed.
  const notBefore = Math.max(now, request.notBefore ?? now);
  if (!Number.isSafeInteger(notBefore) || notBefore > now + MAX_ROTATION_LEAD_MS) {
    throw new InvalidRequestError('notBefore must be a time in ms at most 365 days ahead (one already past starts the key now).', 'notBefore');
  }
  return { notBefore, endorser: head, retire: [] };
}

/**
 * The signing key is retired, and so is any key still waiting to start (made while the leaked key was
 * the newest, it may be known to whoever holds it). The signing key endorses its successor: that is
 * the key applications trust, and the retirement statement names this successor as the only one.
 */
function compromisedPlan(request: RotationRequest, keys: SigningKey[], current: SigningKey | null, now: number): Plan {
  if (request.notBefore !== undefined) throw new InvalidRequestError('A compromised rotation starts the new key now: leave notBefore out.', 'notBefore');
  const retire = keys.filter((k) => k.compromisedAt === null && (k.kid === current?.kid || k.notBefore > now));
  const endorser = current ?? keys.find((k) => k.active)!;
  return { notBefore: now, endorser, retire };
}

function sign(deps: Pick<Deps, 'signer'>, key: SigningKey, input: string): string {
  return assembleStatement(input, deps.signer.sign(key.sealedPrivateKey, utf8.encode(input)));
}
