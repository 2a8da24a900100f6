import { Elysia } from 'elysia';
import { signUp } from '../../../app/developers/sign-up.ts';
import { countFromAddress } from '../../../app/limits/address-limits.ts';
import { grantLicense } from '../../../app/licenses/grant-license.ts';
import { publishJwks } from '../../../app/signing-keys/publish-jwks.ts';
import { rotateSigningKey } from '../../../app/signing-keys/rotate-signing-key.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withSecretKey } from '../auth.ts';
import { clientAddress } from '../client-address.ts';
import { apiKeyRoutes } from './api-keys.ts';
import { errorsOf, GrantBody, IdParams, IssuedLicense, Jwks, RotatedKey, SignupBody, SignupResponse } from '../schemas.ts';

export function developerRoutes(deps: Deps) {
  return new Elysia({ name: 'developers' })
    .post(
      '/developers/signup',
      async ({ body, set, request }) => {
        await countFromAddress(deps, 'signup', clientAddress(request, deps.settings.trustedProxyHeader));
        set.status = 201;
        return signUp(deps, body);
      },
      {
        body: SignupBody,
        response: { 201: SignupResponse, ...errorsOf(400, 409, 413, 429) },
        detail: {
          tags: ['Developers'],
          summary: 'Create a developer account',
          description: 'Returns the secret and publishable API keys once; only their digests are stored. A taken e-mail is 409 email_taken. At most 10 sign-ups per client address per hour by default (SIGNUP_RATE_LIMIT_PER_HOUR); past it, 429 rate_limited with Retry-After.',
          security: SECURITY.none,
        },
      },
    )
    .get('/developers/:id/jwks.json', async ({ params, set }) => {
      set.headers['cache-control'] = 'public, max-age=300';
      return publishJwks(deps, params.id);
    }, {
      params: IdParams,
      response: { 200: Jwks, ...errorsOf(400, 404) },
      detail: {
        tags: ['Developers'],
        summary: 'Public signing keys (JWK Set)',
        description: 'Every Ed25519 public key of the developer, newest first, for verifying license keys offline. No authentication.',
        security: SECURITY.none,
      },
    })
    .use(secretRoutes(deps))
    .use(apiKeyRoutes(deps));
}

function secretRoutes(deps: Deps) {
  return withSecretKey(deps)
    .post(
      '/developers/signing-keys/rotate',
      async ({ caller, set }) => {
        set.status = 201;
        return rotateSigningKey(deps, caller.developerId);
      },
      {
        response: { 201: RotatedKey, ...errorsOf(400, 401, 403, 413) },
        detail: {
          tags: ['Developers'],
          summary: 'Rotate the signing key',
          description: 'New licenses are signed with the new key; keys signed before keep verifying, offline through the JWKS and online.',
          security: SECURITY.secret,
        },
      },
    )
    .post(
      '/developers/licenses',
      async ({ caller, body, set }) => {
        set.status = 201;
        return grantLicense(deps, caller.developerId, body);
      },
      {
        body: GrantBody,
        response: { 201: IssuedLicense, ...errorsOf(400, 401, 403, 404, 413) },
        detail: {
          tags: ['Licenses'],
          summary: 'Grant a license by hand',
          description: 'For beta testers or support: the same key format as a sold license. Features and term default to the product’s.',
          security: SECURITY.secret,
        },
      },
    );
}
