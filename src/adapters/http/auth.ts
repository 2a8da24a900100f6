import { Elysia } from 'elysia';
import { authenticateApiKey, requireSecret, type Caller } from '../../app/developers/authenticate.ts';
import type { Deps } from '../../ports/deps.ts';
import { authenticateCustomer } from '../../app/auth/identity.ts';
import { authenticateSession } from '../../app/console/sessions.ts';
import { CONSOLE_COOKIE } from '../../domain/console-session.ts';
import { ForbiddenError } from '../../domain/errors.ts';

export type AuthDeps = Pick<Deps, 'clock' | 'ids' | 'hashing' | 'otpCodes' | 'developers' | 'consoleSessions' | 'settings'>;

export function apiKeyFrom(request: Request): string | null {
  return request.headers.get('x-api-key');
}

/** `Authorization: Bearer sk_…` — the spec's reference example for unbind. */
export function bearerFrom(request: Request): string | null {
  const value = request.headers.get('authorization');
  const match = value && /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match ? match[1]! : null;
}

export function anyApiKey(deps: AuthDeps, request: Request): Promise<Caller> {
  return authenticateApiKey(deps, apiKeyFrom(request));
}

/** The console session's token from its cookie (docs/console-sign-in.md), or null. */
export function consoleTokenFrom(request: Request): string | null {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === CONSOLE_COOKIE) return part.slice(at + 1).trim();
  }
  return null;
}

/**
 * A request sent from a page carries its page's Origin: a cookie-authenticated one must come from
 * the service's own (PUBLIC_BASE_URL's), else 403. Requests without Origin (same-origin GETs in some
 * browsers, programs) are held by the CSRF header alone.
 */
export function requireOwnOrigin(deps: Pick<Deps, 'settings'>, request: Request): void {
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== new URL(deps.settings.issuer).origin) throw new ForbiddenError('A console session is accepted only from the service’s own origin.');
}

/** A seller's console session, acting as the seller's secret key: the cookie, its CSRF header, the service's own origin. */
export async function consoleCaller(deps: AuthDeps, request: Request, token: string): Promise<Caller> {
  requireOwnOrigin(deps, request);
  const { developerId, sessionId } = await authenticateSession(deps, token, request.headers.get('x-csrf-token'));
  return { developerId, scope: 'secret', sessionId };
}

/**
 * The one place a secret key is checked. The console's session cookie is accepted here (and only
 * here), as the seller's secret key; an X-API-Key header, when sent, decides alone.
 */
export async function secretKey(deps: AuthDeps, request: Request, allowBearer = false): Promise<Caller> {
  const key = apiKeyFrom(request) ?? (allowBearer ? bearerFrom(request) : null);
  const token = key === null ? consoleTokenFrom(request) : null;
  if (token !== null) return consoleCaller(deps, request, token);
  return requireSecret(await authenticateApiKey(deps, key));
}

/** OpenAPI security requirements, named after the schemes declared in server.ts. */
export const SECURITY: Record<'secret' | 'secretOrBearer' | 'any' | 'none' | 'customer' | 'secretOrCustomer' | 'console', Record<string, string[]>[]> = {
  // The console's session cookie with its CSRF header works wherever a secret key does.
  secret: [{ apiKey: [] }, { consoleSession: [], csrfToken: [] }],
  console: [{ consoleSession: [], csrfToken: [] }],
  // An identity token works only beside its device's fingerprint: both headers, together.
  customer: [{ identityToken: [], deviceFingerprint: [] }],
  secretOrCustomer: [{ apiKey: [] }, { identityToken: [], deviceFingerprint: [] }],
  secretOrBearer: [{ apiKey: [] }, { bearerSecret: [] }],
  any: [{ apiKey: [] }],
  none: [],
};

/**
 * Instances whose routes need a credential. `derive` runs before schema validation, so a caller
 * without the right key hears 401/403 whatever fields its body holds (a body that is not JSON at
 * all is refused earlier, by the parser, with 400).
 */
export const withSecretKey = (deps: AuthDeps, allowBearer = false) =>
  new Elysia().derive(async ({ request }) => ({ caller: await secretKey(deps, request, allowBearer) }));

export const withAnyApiKey = (deps: AuthDeps) =>
  new Elysia().derive(async ({ request }) => ({ caller: await anyApiKey(deps, request) }));

export type CustomerAuthDeps = Pick<Deps, 'clock' | 'hashing' | 'identityTokens'>;

function customerFrom(deps: CustomerAuthDeps, request: Request) {
  return authenticateCustomer(deps, bearerFrom(request), request.headers.get('x-device-fingerprint'));
}

/** Routes for a logged-in customer: `Authorization: Bearer idt_…` with `X-Device-Fingerprint`, the device it was issued to. */
export const withCustomer = (deps: CustomerAuthDeps) =>
  new Elysia().derive(async ({ request }) => ({ customer: await customerFrom(deps, request) }));

/** Either the developer's secret key (X-API-Key) or a customer's identity token (Bearer). */
export const withSecretKeyOrCustomer = (deps: AuthDeps & CustomerAuthDeps) =>
  new Elysia().derive(async ({ request }) => {
    const seller = apiKeyFrom(request) !== null || (bearerFrom(request) === null && consoleTokenFrom(request) !== null);
    if (seller) return { viewer: { developerId: (await secretKey(deps, request)).developerId } };
    return { viewer: { customerId: (await customerFrom(deps, request)).customerId } };
  });
