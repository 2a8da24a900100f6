import { Elysia, t } from 'elysia';
import { startConsoleLogin, verifyConsoleLogin } from '../../../app/console/code-sign-in.ts';
import {
  listPasskeys,
  passkeyRegistrationOptions,
  passkeySignInOptions,
  registerPasskey,
  revokePasskey,
  signInWithPasskey,
} from '../../../app/console/passkeys.ts';
import { currentSession, listSessions, revokeAllSessions, revokeSession, type SignInContext } from '../../../app/console/sessions.ts';
import { countFromAddress } from '../../../app/limits/address-limits.ts';
import { CONSOLE_COOKIE, CONSOLE_SESSION_LIMITS } from '../../../domain/console-session.ts';
import { UnauthorizedError } from '../../../domain/errors.ts';
import type { Deps } from '../../../ports/deps.ts';
import { consoleTokenFrom, requireOwnOrigin, SECURITY, withSecretKey } from '../auth.ts';
import { clientAddress } from '../client-address.ts';
import { errorsOf, IdParams } from '../schemas.ts';
import {
  ConsoleLoginBody,
  ConsoleLoginStarted,
  ConsoleLoginVerifyBody,
  ConsoleSessionList,
  PasskeyList,
  PasskeyRegisterBody,
  PasskeySignInBody,
  PasskeySignInOptions,
  PasskeyView,
  SignedIn,
  WebAuthnOptions,
} from './console-schemas.ts';

const tags = ['console'];
const ConsoleNoContent = t.Void({ description: 'Done; no body.' });
const ATTRIBUTES = 'HttpOnly; Secure; SameSite=Strict; Path=/';
const sessionCookie = (token: string) => `${CONSOLE_COOKIE}=${token}; ${ATTRIBUTES}; Max-Age=${CONSOLE_SESSION_LIMITS.lifetimeMs / 1000}`;
const CLEARED = `${CONSOLE_COOKIE}=; ${ATTRIBUTES}; Max-Age=0`;

type Set = { status?: number | string; headers: Record<string, string | number> };

/** A sign-in's answer: the cookie with the new token, the view in the body. */
function signedIn(set: Set, { token, view }: { token: string; view: unknown }) {
  set.headers['set-cookie'] = sessionCookie(token);
  set.headers['cache-control'] = 'no-store';
  return view as never;
}

function noContent(set: Set): void {
  set.status = 204;
}

/** The seller console's sign-in (docs/console-sign-in.md): codes, passkeys, sessions. */
export function consoleRoutes(deps: Deps) {
  const context = (request: Request): SignInContext => ({
    userAgent: request.headers.get('user-agent') ?? '',
    clientAddress: clientAddress(request, deps.settings.trustedProxyHeader),
  });
  return new Elysia({ name: 'console-sign-in' })
    .post('/developers/login', async ({ body, request, set }) => {
      const address = clientAddress(request, deps.settings.trustedProxyHeader);
      await countFromAddress(deps, 'login', address);
      set.status = 202;
      return startConsoleLogin(deps, { email: body.email, clientAddress: address });
    }, {
      body: ConsoleLoginBody,
      response: { 202: ConsoleLoginStarted, ...errorsOf(400, 413, 429, 502) },
      detail: {
        tags, security: SECURITY.none,
        summary: 'Console sign-in: e-mail a code to the account',
        description:
          'Always 202 with a loginId, whether or not an account has this e-mail (no enumeration: the same fields, at least as long); only an account gets a code. Limits as buyer sign-in: 3 codes per 15 minutes and 10 per day per e-mail and client address, 50 a day per e-mail, 60 sign-in starts an hour per client address (429 rate_limited with Retry-After).',
      },
    })
    .post('/developers/login/verify', async ({ body, request, set }) => signedIn(set, await verifyConsoleLogin(deps, { ...body, ...context(request) })), {
      body: ConsoleLoginVerifyBody,
      response: { 200: SignedIn, ...errorsOf(400, 410, 413, 422, 429) },
      detail: {
        tags, security: SECURITY.none,
        summary: 'Console sign-in: check the code, open a session',
        description:
          'Sets the session cookie (a new token at every sign-in; 8 hours, 1 hour idle). 422 otp_invalid for a wrong, used or unknown code; 410 otp_expired after 5 minutes; 429 otp_attempts_exceeded after 5 tries; 429 rate_limited for an hour once 20 tries at this account’s codes from this client address went without a success.',
      },
    })
    .post('/developers/login/passkey/options', async ({ request }) => {
      await countFromAddress(deps, 'login', clientAddress(request, deps.settings.trustedProxyHeader));
      return passkeySignInOptions(deps);
    }, {
      response: { 200: PasskeySignInOptions, ...errorsOf(413, 429) },
      detail: {
        tags, security: SECURITY.none,
        summary: 'Passkey sign-in: a challenge',
        description: 'A single-use challenge (5 minutes) for navigator.credentials.get; no credential is listed (discoverable passkeys), no e-mail asked. Counted with sign-in starts per client address.',
      },
    })
    .post('/developers/login/passkey/verify', async ({ body, request, set }) => signedIn(set, await signInWithPasskey(deps, { ...body, ...context(request) })), {
      body: PasskeySignInBody,
      response: { 200: SignedIn, ...errorsOf(400, 401, 413) },
      detail: {
        tags, security: SECURITY.none,
        summary: 'Passkey sign-in: check the assertion, open a session',
        description: '401 unauthorized for an unknown, used or expired challenge, an unknown or revoked passkey, a signature that does not verify, another origin or RP, or a signature counter that did not go up (a cloned key). The challenge is used up by the first try.',
      },
    })
    .get('/developers/console/session', async ({ request, set }) => {
      const token = consoleTokenFrom(request);
      if (token === null) throw new UnauthorizedError('No console session: sign in.');
      requireOwnOrigin(deps, request);
      set.headers['cache-control'] = 'no-store';
      return currentSession(deps, token);
    }, {
      response: { 200: SignedIn, ...errorsOf(401, 403) },
      detail: {
        tags, security: SECURITY.console,
        summary: 'The console session of this cookie',
        description: 'The same answer as sign-in (the CSRF token again, for a reloaded page). Needs no X-CSRF-Token: it changes nothing. 401 without a live session.',
      },
    })
    .use(sessionRoutes(deps));
}

/** Behind withSecretKey: a console session or a secret key. */
function sessionRoutes(deps: Deps) {
  const security = SECURITY.secret;
  /** Revoking one of the seller's sessions or passkeys by id: 204, and 404 for another seller's or an unknown one. */
  const revoking = (revoke: (deps: Deps, developerId: string, id: string) => Promise<void>) =>
    async ({ caller, params, set }: { caller: { developerId: string }; params: { id: string }; set: Set }) => {
      await revoke(deps, caller.developerId, params.id);
      noContent(set);
    };
  const revokeRoute = (summary: string, description: string) => ({
    params: IdParams,
    response: { 204: ConsoleNoContent, ...errorsOf(400, 401, 403, 404) },
    detail: { tags, security, summary, description },
  });
  return withSecretKey(deps)
    .post('/developers/logout', async ({ caller, set }) => {
      if (caller.sessionId) await revokeSession(deps, caller.developerId, caller.sessionId);
      set.headers['set-cookie'] = CLEARED;
      noContent(set);
    }, {
      response: { 204: ConsoleNoContent, ...errorsOf(401, 403) },
      detail: { tags, security, summary: 'Sign out: revoke this session and clear its cookie', description: 'With a secret key nothing is revoked.' },
    })
    .get('/developers/console/sessions', async ({ caller }) => ({ data: await listSessions(deps, caller) }), {
      response: { 200: ConsoleSessionList, ...errorsOf(401, 403) },
      detail: { tags, security, summary: 'The seller’s live console sessions', description: 'Newest first: when, how and from where each signed in; current marks the caller’s own.' },
    })
    .post('/developers/console/sessions/revoke-all', async ({ caller, set }) => {
      await revokeAllSessions(deps, caller.developerId);
      noContent(set);
    }, {
      response: { 204: ConsoleNoContent, ...errorsOf(401, 403) },
      detail: { tags, security, summary: 'Sign out everywhere', description: 'Revokes every console session of the seller, the caller’s own included.' },
    })
    .post('/developers/console/sessions/:id/revoke', revoking(revokeSession), revokeRoute('Revoke one console session', 'Another seller’s session, or an unknown id, is 404.'))
    .post('/developers/passkeys/registration/options', ({ caller }) => passkeyRegistrationOptions(deps, caller), {
      response: { 200: WebAuthnOptions, ...errorsOf(401, 403, 409, 429) },
      detail: {
        tags, security: SECURITY.console,
        summary: 'Add a passkey: the creation options',
        description: 'Only from a console session (a secret key is 403): a single-use challenge for navigator.credentials.create, 5 minutes. At most 20 passkeys (409); at most 30 registrations started per seller an hour (429 rate_limited with Retry-After).',
      },
    })
    .post('/developers/passkeys/registration/verify', async ({ caller, body, set }) => {
      set.status = 201;
      return registerPasskey(deps, caller, body);
    }, {
      body: PasskeyRegisterBody,
      response: { 201: PasskeyView, ...errorsOf(400, 401, 403, 409, 413) },
      detail: {
        tags, security: SECURITY.console,
        summary: 'Add a passkey: check the attestation',
        description: '400 invalid_request when the answer does not verify (another origin or RP, an unknown, used or expired challenge); 409 for a passkey registered already.',
      },
    })
    .get('/developers/passkeys', async ({ caller }) => ({ data: await listPasskeys(deps, caller.developerId) }), {
      response: { 200: PasskeyList, ...errorsOf(401, 403) },
      detail: { tags, security, summary: 'The seller’s passkeys', description: 'Oldest first, revoked ones left out.' },
    })
    .post('/developers/passkeys/:id/revoke', revoking(revokePasskey), revokeRoute('Revoke a passkey', 'It signs in no more. Another seller’s passkey, or an unknown id, is 404.'));
}
