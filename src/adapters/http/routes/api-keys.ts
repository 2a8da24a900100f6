import { createApiKey, listApiKeys, revokeApiKey } from '../../../app/developers/api-keys.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withSecretKey } from '../auth.ts';
import { ApiKeyList, ApiKeyView, errorsOf, IdParams, NewApiKey, NewApiKeyBody } from '../schemas.ts';

/** The developer's own API keys: make, list, revoke. Secret keys only. */
export function apiKeyRoutes(deps: Deps) {
  return withSecretKey(deps)
    .get('/developers/api-keys', async ({ caller }) => ({ data: await listApiKeys(deps, caller.developerId) }), {
      response: { 200: ApiKeyList, ...errorsOf(401, 403) },
      detail: {
        tags: ['Developers'],
        summary: 'List API keys',
        description: 'Every key of the caller, newest first, revoked ones with their revocation time. Never the key itself nor its digest.',
        security: SECURITY.secret,
      },
    })
    .post(
      '/developers/api-keys',
      async ({ caller, body, set }) => {
        set.status = 201;
        return createApiKey(deps, caller.developerId, { scope: body.scope });
      },
      {
        body: NewApiKeyBody,
        response: { 201: NewApiKey, ...errorsOf(400, 401, 403, 413) },
        detail: {
          tags: ['Developers'],
          summary: 'Make an API key',
          description: 'A new secret (sk_…) or publishable (pk_…) key, working at once. The key is shown once; only its digest is stored.',
          security: SECURITY.secret,
        },
      },
    )
    .post('/developers/api-keys/:id/revoke', async ({ caller, params }) => revokeApiKey(deps, caller.developerId, params.id), {
      params: IdParams,
      response: { 200: ApiKeyView, ...errorsOf(400, 401, 403, 404, 409, 413) },
      detail: {
        tags: ['Developers'],
        summary: 'Revoke an API key',
        description:
          'The key is refused (401) from now on; on PostgreSQL, other instances may accept it for up to 5 seconds more. ' +
          'Revoking a revoked key answers it unchanged. The last active secret key cannot be revoked (409 conflict): make another first. ' +
          'Another developer’s key is 404.',
        security: SECURITY.secret,
      },
    });
}
