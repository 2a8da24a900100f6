import { DomainError, InvalidRequestError } from './errors.ts';

/** A claimed key is in_progress while its first request runs, done once its answer is kept. */
export const IDEMPOTENCY_STATUSES = ['in_progress', 'done'] as const;
export type IdempotencyStatus = (typeof IDEMPOTENCY_STATUSES)[number];

export const IDEMPOTENCY_LIMITS = {
  /** How long a key answers its first answer again (as Stripe: 24 hours). */
  ttlMs: 86_400_000,
  keyMaxLength: 255,
  /** How often the request holding a key tells the store it still runs. */
  heartbeatMs: 3_000,
  /**
   * A claim not refreshed for this long, with nothing written under it, was lost with its process
   * (kill -9, power cut): the key may be claimed again. Three missed heartbeats, so a busy event
   * loop does not give a live request's key away.
   */
  lostAfterMs: 10_000,
  /** What a caller hears while the first request with its key still runs. */
  retryAfterSeconds: 1,
} as const;

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** 1 to 255 printable ASCII characters, or a 400 naming the header. */
export function checkIdempotencyKey(key: string): string {
  if (key.length <= IDEMPOTENCY_LIMITS.keyMaxLength && PRINTABLE_ASCII.test(key)) return key;
  throw new InvalidRequestError(`${IDEMPOTENCY_HEADER} must be 1 to ${IDEMPOTENCY_LIMITS.keyMaxLength} printable ASCII characters.`, IDEMPOTENCY_HEADER, 'headers');
}

/** The key was first used for another request (another body, path or route). */
export class IdempotencyKeyReusedError extends DomainError {
  constructor() {
    super('idempotency_key_reused', `This ${IDEMPOTENCY_HEADER} was already used for a different request; use a new key for a new request.`);
  }
}

/** The kept record of a key, as the store answers it. */
export interface IdempotencyRecord {
  scope: string;
  key: string;
  route: string;
  digest: string;
  status: IdempotencyStatus;
  responseStatus: number | null;
  responseBody: string | null;
  /** What the guarded write created under this key, linked in that write's transaction. */
  objectKind: string | null;
  objectId: string | null;
  heartbeatAt: number | null;
  createdAt: number;
  expiresAt: number;
}

export type IdempotencyClaim = Pick<IdempotencyRecord, 'scope' | 'key' | 'route' | 'digest' | 'createdAt' | 'expiresAt'>;

/**
 * What a request with a key already stored gets: the kept answer, a refusal, the object the first
 * request wrote before its answer was kept (its process died, or it is finishing), or "still running".
 */
export type IdempotencyOutcome =
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'reused' }
  | { kind: 'rebuild'; objectKind: string; objectId: string }
  | { kind: 'in_progress' };

export function outcomeFor(existing: IdempotencyRecord, claim: Pick<IdempotencyClaim, 'route' | 'digest'>): IdempotencyOutcome {
  if (existing.route !== claim.route || existing.digest !== claim.digest) return { kind: 'reused' };
  if (existing.status === 'done' && existing.responseStatus !== null && existing.responseBody !== null) {
    return { kind: 'replay', status: existing.responseStatus, body: existing.responseBody };
  }
  if (existing.status === 'in_progress' && existing.objectKind !== null && existing.objectId !== null) {
    return { kind: 'rebuild', objectKind: existing.objectKind, objectId: existing.objectId };
  }
  return { kind: 'in_progress' };
}
