import { Elysia } from 'elysia';
import { authenticateApiKey, requireSecret, type Caller } from '../../app/developers/authenticate.ts';
import type { Deps } from '../../ports/deps.ts';
import { authenticateCustomer } from '../../app/auth/identity.ts';

export type AuthDeps = Pick<Deps, 'clock' | 'hashing' | 'developers'>;

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

export async function secretKey(deps: AuthDeps, request: Request, allowBearer = false): Promise<Caller> {
  const key = apiKeyFrom(request) ?? (allowBearer ? bearerFrom(request) : null);
  return requireSecret(await authenticateApiKey(deps, key));
}

/** OpenAPI security requirements, named after the schemes declared in server.ts. */
export const SECURITY: Record<'secret' | 'secretOrBearer' | 'any' | 'none' | 'customer' | 'secretOrCustomer', Record<string, string[]>[]> = {
  secret: [{ apiKey: [] }],
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
    if (apiKeyFrom(request) !== null) return { viewer: { developerId: (await secretKey(deps, request)).developerId } };
    return { viewer: { customerId: (await customerFrom(deps, request)).customerId } };
  });
