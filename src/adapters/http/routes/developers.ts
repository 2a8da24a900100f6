import { Elysia, t } from 'elysia';
import { createApiKey, listApiKeys, revokeApiKey } from '../../../app/developers/api-keys.ts';
import { signUp } from '../../../app/developers/sign-up.ts';
import { countFromAddress } from '../../../app/limits/address-limits.ts';
import { publishJwks } from '../../../app/signing-keys/publish-jwks.ts';
import { rotateSigningKey } from '../../../app/signing-keys/rotate-signing-key.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withSecretKey } from '../auth.ts';
import { clientAddress } from '../client-address.ts';
import { API_KEY_SCOPES, EMAIL_MAX_LENGTH } from '../../../domain/developer.ts';
import { EXAMPLE } from '../examples.ts';
import { errorsOf, IdParams, Input, Int, Millis, MillisOrNull } from '../schemas.ts';
import { KEY_STATUSES } from '../../../domain/key-statements.ts';
import { literalUnion, meanings } from '../vocabulary.ts';
import { idempotent, keepAnswerWithWrite, underKey } from '../idempotency.ts';

const SignupBody = Input({
  email: t.String({ maxLength: EMAIL_MAX_LENGTH, description: 'Unique across developers.' }),
  name: t.String({ minLength: 1, maxLength: 200 }),
}, { examples: [{ email: EXAMPLE.sellerEmail, name: 'Ada Tools' }] });

const SignupResponse = t.Object({
  id: t.String(),
  email: t.String(),
  name: t.String(),
  secretKey: t.String({ description: 'Secret key (sk_…). Shown once; keep it on your server: it can do everything, so it never goes into an application (the client library refuses it).' }),
  apiKey: t.String({ description: 'The same secret key as secretKey (its earlier name, kept for compatibility). Not the key to ship in an application: that is publishableKey.' }),
  publishableKey: t.String({ description: 'Publishable key (pk_…): validation and checkout only, safe to ship in apps.' }),
  createdAt: Millis,
}, {
  examples: [{ id: EXAMPLE.developerId, email: EXAMPLE.sellerEmail, name: 'Ada Tools', secretKey: EXAMPLE.secretKey, apiKey: EXAMPLE.secretKey, publishableKey: EXAMPLE.publishableKey, createdAt: EXAMPLE.time }],
});

const KeyStatus = literalUnion(KEY_STATUSES, {
  description: meanings(KEY_STATUSES, {
    current: 'signs now',
    next: 'published, signs from notBefore',
    retired: 'replaced, still verifies what it signed',
    compromised: 'nothing it signed from compromisedAt on is to be believed',
  }),
});

// The body may be left out (the defaults): the route's transform makes a missing body `{}`, so
// anything sent must be this object (t.Optional would let any value through, a union names no field).
const RotateBody = Input({
    notBefore: t.Optional(Int({ minimum: 0, description: 'When the new key starts signing (ms). Default: at once (0 or any time past too); at most 365 days ahead. Staging it (the CLI’s default is 7 days ahead) lets apps that are offline for a while learn it before it signs. Not with compromised.' })),
    compromised: t.Optional(t.Boolean({ description: 'Retire the signing key (and any key waiting to start) as compromised: the new key signs at once and signs their retirement.' })),
}, { examples: [{}, { notBefore: EXAMPLE.time }, { compromised: true }] });

const RotatedKey = t.Object({
  kid: t.String(),
  publicKey: t.String({ description: 'Raw Ed25519 public key, base64url.' }),
  notBefore: Millis,
  status: KeyStatus,
  endorsedBy: t.String({ description: 'The kid of the key whose endorsement vouches for the new one.' }),
  compromised: t.Array(t.String(), { description: 'The kids this rotation retired as compromised.' }),
});

const Jwks = t.Object({
  keys: t.Array(
    t.Object({
      kty: t.Literal('OKP'),
      crv: t.Literal('Ed25519'),
      x: t.String(),
      kid: t.String(),
      alg: t.Literal('EdDSA'),
      use: t.Literal('sig'),
      status: KeyStatus,
      notBefore: Millis,
      endorsement: t.Optional(t.String({ description: 'Compact JWS (typ licensing-key-endorsement+jws) by the key before this one: {sub, kid, x, notBefore, iat}. Absent on the first key.' })),
      compromisedAt: t.Optional(Millis),
      retirement: t.Optional(t.String({ description: 'Compact JWS (typ licensing-key-retirement+jws) by the successor: {sub, kid, compromisedAt, successor}.' })),
    }),
  ),
});

const ApiKeyScope = literalUnion(API_KEY_SCOPES, {
  description: 'secret (sk_…): everything; publishable (pk_…): validation and checkout only.',
});

const NewApiKeyBody = Input({ scope: ApiKeyScope }, { examples: [{ scope: 'publishable' }] });

const NewApiKey = t.Object({
  id: t.String(),
  scope: ApiKeyScope,
  key: t.String({ description: 'The key itself (sk_… or pk_…). Shown once: only its digest is stored.' }),
  createdAt: Millis,
});

export const ApiKeyView = t.Object({
  id: t.String(),
  scope: ApiKeyScope,
  createdAt: Millis,
  revokedAt: MillisOrNull(),
  lastUsedAt: MillisOrNull('When a request last authenticated with it, to the minute (written at most once a minute); null = never used.'),
});

const ApiKeyList = t.Object({ data: t.Array(ApiKeyView) });

const tags = ['Developers'];
const security = SECURITY.secret;

/** The developer's account: sign-up, signing keys and API keys. */
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
          tags,
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
        tags,
        summary: 'Public signing keys (JWK Set)',
        description: 'Every Ed25519 public key of the developer, newest first, for verifying license keys offline, each with its status in the rotation (current, next, retired, compromised), the time it starts signing, and the signed statements that let an app trusting an older key follow it (docs/key-rotation.md). No authentication.',
        security: SECURITY.none,
      },
    })
    .use(keyRoutes(deps));
}

/** The signing key and the API keys: make, list, revoke. Secret keys only. */
function keyRoutes(deps: Deps) {
  return withSecretKey(deps)
    .post('/developers/signing-keys/rotate', async ({ caller, body, set }) => {
      set.status = 201;
      return rotateSigningKey(deps, caller.developerId, { notBefore: body.notBefore, compromised: body.compromised });
    }, {
      transform(context) {
        if (context.body === undefined) context.body = {};
      },
      body: RotateBody,
      response: { 201: RotatedKey, ...errorsOf(400, 401, 403, 409, 413) },
      detail: {
        tags, security, summary: 'Rotate the signing key',
        description:
          'The body may be left out. Makes the next signing key, endorsed by the newest key, and publishes it in the JWKS at once; it signs new licenses and answers from notBefore (default: at once; the CLI stages it 7 days ahead). Keys signed before keep verifying, offline through the JWKS and online, and apps that trust only an older key follow the endorsements (docs/key-rotation.md). ' +
          'While a key waits to start, another rotation is 409 conflict. compromised: true retires the signing key (and a waiting key) as compromised and starts the new key now: apps refuse what the retired key signs from then on.',
      },
    })
    .get('/developers/api-keys', async ({ caller }) => ({ data: await listApiKeys(deps, caller.developerId) }), {
      response: { 200: ApiKeyList, ...errorsOf(401, 403) },
      detail: {
        tags, security, summary: 'List API keys',
        description: 'Every key of the caller, newest first, revoked ones with their revocation time. Never the key itself nor its digest.',
      },
    })
    .post('/developers/api-keys', async ({ caller, body, set, request }) => {
      set.status = 201;
      // Only the key's digest is stored: a keyed request's answer is kept with the key's insert.
      return underKey(request, () => createApiKey(deps, caller.developerId, { scope: body.scope }, (created) => keepAnswerWithWrite(deps, 201, created)));
    }, {
      body: NewApiKeyBody,
      ...idempotent(deps),
      response: { 201: NewApiKey, ...errorsOf(400, 401, 403, 413) },
      detail: {
        tags, security, summary: 'Make an API key',
        description: 'A new secret (sk_…) or publishable (pk_…) key, working at once. The key is shown once; only its digest is stored.',
      },
    })
    .post('/developers/api-keys/:id/revoke', async ({ caller, params }) => revokeApiKey(deps, caller.developerId, params.id), {
      params: IdParams,
      response: { 200: ApiKeyView, ...errorsOf(400, 401, 403, 404, 409, 413) },
      detail: {
        tags, security, summary: 'Revoke an API key',
        description:
          'The key is refused (401) from now on; on PostgreSQL, other instances may accept it for up to 5 seconds more. ' +
          'Revoking a revoked key answers it unchanged. The last active secret key cannot be revoked (409 conflict): make another first. ' +
          'Another developer’s key is 404.',
      },
    });
}
