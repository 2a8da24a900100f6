import { API_KEY_PREFIX, type ApiKeyRecord, type ApiKeyScope } from '../../domain/developer.ts';
import { ConflictError, NotFoundError } from '../../domain/errors.ts';
import type { Deps } from '../../ports/deps.ts';

/** A key as its developer sees it later: never the key, never its digest. */
export interface ApiKeyView {
  id: string;
  scope: ApiKeyScope;
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

export interface CreatedApiKey {
  id: string;
  scope: ApiKeyScope;
  /** Shown once: only its digest is stored. */
  key: string;
  createdAt: number;
}

const view = ({ id, scope, createdAt, revokedAt, lastUsedAt }: ApiKeyRecord): ApiKeyView => ({ id, scope, createdAt, revokedAt, lastUsedAt });

/**
 * `beforeWrite` sees the answer before the key is stored: a keyed request keeps it with the key's
 * insert, since the stored digest cannot show the key again.
 */
export async function createApiKey(
  deps: Pick<Deps, 'clock' | 'ids' | 'hashing' | 'developers'>,
  developerId: string,
  input: { scope: ApiKeyScope },
  beforeWrite?: (created: CreatedApiKey) => void,
): Promise<CreatedApiKey> {
  const key = deps.ids.secret(API_KEY_PREFIX[input.scope]);
  const record: ApiKeyRecord = {
    id: deps.ids.next('key'),
    developerId,
    scope: input.scope,
    keyHash: deps.hashing.hash(key),
    createdAt: deps.clock.now(),
    revokedAt: null,
    lastUsedAt: null,
  };
  const created = { id: record.id, scope: record.scope, key, createdAt: record.createdAt };
  beforeWrite?.(created);
  await deps.developers.addApiKey(record);
  return created;
}

export async function listApiKeys(deps: Pick<Deps, 'developers'>, developerId: string): Promise<ApiKeyView[]> {
  return (await deps.developers.listApiKeys(developerId)).map(view);
}

/**
 * The key stops authenticating at once on this instance. The developer's last active secret key is
 * kept: without it nobody could make another one. Revoking a revoked key changes nothing.
 */
export async function revokeApiKey(
  deps: Pick<Deps, 'clock' | 'developers'>,
  developerId: string,
  id: string,
): Promise<ApiKeyView> {
  // The store decides in one step (concurrent revokes of two secret keys must leave one).
  const revoked = await deps.developers.revokeApiKey(developerId, id, deps.clock.now());
  if (!revoked) throw new NotFoundError('API key');
  if (revoked.revokedAt === null) throw new ConflictError('conflict', 'Make another secret key before revoking the last one.');
  return view(revoked);
}
