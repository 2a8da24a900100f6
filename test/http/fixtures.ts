import { expect } from 'bun:test';
import { generateKeyPairSync, sign } from 'node:crypto';
import { utf8 } from '../../src/domain/base64url.ts';
import { assembleLicenseKey, signingInputFor, type LicenseClaims } from '../../src/domain/license-key.ts';
import { TEST_ISSUER } from '../support/deps.ts';
import { seller, testApi, type Reply, type TestApi } from '../support/http.ts';

/** CONTRACT.md's error shape, with the status it travels with. */
export function expectError(reply: Reply, status: number, code?: string) {
  expect(reply.status).toBe(status);
  expect(reply.body).toEqual({
    error: { code: code ?? expect.stringMatching(/^[a-z]+(_[a-z]+)*$/), message: expect.any(String), ...(reply.body?.error?.details !== undefined && { details: expect.any(Object) }) },
  });
  expect(reply.body.error.message.length).toBeGreaterThan(0);
}

/** Never a 5xx; any non-2xx is the contract's JSON error. */
export function expectHandled(reply: Reply) {
  expect(reply.status).toBeLessThan(500);
  if (reply.status >= 300) expectError(reply, reply.status);
}

/** Two developers: `mine` with a product and a granted license, and `other`. */
export async function world(api: TestApi = testApi()) {
  const mine = await seller(api);
  const other = await seller(api);
  const issued = await mine.grant();
  return { api, mine, other, license: issued.license, licenseKey: issued.licenseKey };
}

export type World = Awaited<ReturnType<typeof world>>;
export type Auth = 'none' | 'secret' | 'any';

export interface Route {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** With no argument, the path of `mine`'s own resource. */
  path: (id?: string) => string;
  auth: Auth;
  /** A valid body; a function so each call can be unique (signup e-mails). */
  body?: () => Record<string, unknown>;
  /** The route names a resource in its path (`:id`). */
  hasIdParam?: boolean;
}

let unique = 0;

/** Every route of issue 2, so no loop forgets one. */
export function routeTable(w: World): Route[] {
  const product = w.mine.product.id as string;
  const license = w.license.id as string;
  return [
    { name: 'GET /health', method: 'GET', path: () => '/health', auth: 'none' },
    { name: 'GET /openapi.json', method: 'GET', path: () => '/openapi.json', auth: 'none' },
    { name: 'GET /docs', method: 'GET', path: () => '/docs', auth: 'none' },
    { name: 'POST /developers/signup', method: 'POST', path: () => '/developers/signup', auth: 'none', body: () => ({ email: `new${++unique}@example.com`, name: 'New' }) },
    { name: 'GET /developers/:id/jwks.json', method: 'GET', path: (id = w.mine.id) => `/developers/${id}/jwks.json`, auth: 'none', hasIdParam: true },
    { name: 'POST /developers/products', method: 'POST', path: () => '/developers/products', auth: 'secret', body: () => ({ name: 'Basic', price: 500, currency: 'eur', features: ['basic'], licenseDays: 30 }) },
    { name: 'GET /developers/products', method: 'GET', path: () => '/developers/products', auth: 'secret' },
    { name: 'PATCH /developers/products/:id', method: 'PATCH', path: (id = product) => `/developers/products/${id}`, auth: 'secret', body: () => ({ name: 'Pro 2' }), hasIdParam: true },
    { name: 'POST /developers/licenses', method: 'POST', path: () => '/developers/licenses', auth: 'secret', body: () => ({ productId: product, email: 'buyer@example.com' }) },
    { name: 'POST /developers/signing-keys/rotate', method: 'POST', path: () => '/developers/signing-keys/rotate', auth: 'secret' },
    { name: 'GET /licenses/:id', method: 'GET', path: (id = license) => `/licenses/${id}`, auth: 'secret', hasIdParam: true },
    { name: 'POST /licenses/validate', method: 'POST', path: () => '/licenses/validate', auth: 'any', body: () => ({ licenseKey: w.licenseKey, machineFingerprint: 'fp-table' }) },
    { name: 'POST /licenses/:id/unbind', method: 'POST', path: (id = license) => `/licenses/${id}/unbind`, auth: 'secret', hasIdParam: true },
    { name: 'POST /licenses/:id/revoke', method: 'POST', path: (id = license) => `/licenses/${id}/revoke`, auth: 'secret', hasIdParam: true },
  ];
}

export const authenticated = (routes: Route[]) => routes.filter((r) => r.auth !== 'none');

/** A license key signed with the developer's real private key, over whatever claims the test wants. */
export async function signAsDeveloper(api: TestApi, developerId: string, claims: Partial<LicenseClaims>): Promise<string> {
  const key = await api.deps.signingKeys.active(developerId);
  if (!key) throw new Error('no active signing key');
  const input = signingInputFor(key.kid, fullClaims(developerId, claims));
  return assembleLicenseKey(input, api.deps.signer.sign(key.sealedPrivateKey, utf8.encode(input)));
}

/** A well-formed key signed by a key pair the service has never seen. */
export function signWithUnknownKey(developerId: string, claims: Partial<LicenseClaims>, kid = 'kid_NotKnownAnywhere000000'): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  const input = signingInputFor(kid, fullClaims(developerId, claims));
  return assembleLicenseKey(input, new Uint8Array(sign(null, utf8.encode(input), privateKey)));
}

function fullClaims(developerId: string, claims: Partial<LicenseClaims>): LicenseClaims {
  return { iss: TEST_ISSUER, sub: developerId, id: 'lic_x', productId: 'prod_x', features: [], issuedAt: 0, expiresAt: null, ...claims };
}

/** The JWS header and claims of a compact key, decoded without verifying. */
export function decodeKey(licenseKey: string): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const [h, p] = licenseKey.split('.') as [string, string];
  const json = (s: string) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
  return { header: json(h), claims: json(p) };
}
