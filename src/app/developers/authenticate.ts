import { ForbiddenError, UnauthorizedError } from '../../domain/errors.ts';
import { API_KEY_LAST_USED_RESOLUTION_MS, scopeOfKey, type ApiKeyScope } from '../../domain/developer.ts';
import type { Deps } from '../../ports/deps.ts';

export interface Caller {
  developerId: string;
  scope: ApiKeyScope;
  /** Set when the caller is a seller's console session (acting as a secret key), not a key. */
  sessionId?: string;
}

/** Who presents this API key: unknown, malformed or revoked keys are all 401. */
export async function authenticateApiKey(
  deps: Pick<Deps, 'clock' | 'hashing' | 'developers'>,
  key: string | undefined | null,
): Promise<Caller> {
  if (!key) throw new UnauthorizedError('An API key is required (X-API-Key header).');
  if (!scopeOfKey(key) || key.length > 200) throw new UnauthorizedError('The API key is not valid.');
  const hash = deps.hashing.hash(key);
  const record = await deps.developers.findApiKeyByHash(hash);
  if (!record || record.revokedAt !== null || !deps.hashing.equal(record.keyHash, hash)) {
    throw new UnauthorizedError('The API key is not valid.');
  }
  // lastUsedAt, to the minute: a write once a minute per key at most, never on every request.
  const now = deps.clock.now();
  if (record.lastUsedAt === null || now - record.lastUsedAt >= API_KEY_LAST_USED_RESOLUTION_MS) await deps.developers.touchApiKey(hash, now);
  return { developerId: record.developerId, scope: record.scope };
}

/** Publishable keys may only do what is safe inside a shipped application. */
export function requireSecret(caller: Caller): Caller {
  if (caller.scope !== 'secret') throw new ForbiddenError('This operation needs a secret (sk_) key.');
  return caller;
}
