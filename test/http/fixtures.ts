import { expect } from 'bun:test';
import { generateKeyPairSync, sign } from 'node:crypto';
import { utf8 } from '../../src/domain/base64url.ts';
import { assembleLicenseKey, signingInputFor, type LicenseClaims } from '../../src/domain/license-key.ts';
import { TEST_ISSUER } from '../support/deps.ts';
import { seller, testApi, type Reply, type TestApi } from '../support/http.ts';
import { SANDBOX_CODE } from '../checkout/shop.ts';

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

/** Two developers: `mine` with a product, a granted license, a connected (sandbox) account and a pending checkout; and `other`. */
export async function world(api: TestApi = testApi()) {
  const mine = await seller(api);
  const other = await seller(api);
  const issued = await mine.grant();
  await connectInSandbox(api, mine.apiKey);
  const checkout = await api.call('POST', '/checkout/init', { key: mine.apiKey, body: { productId: mine.product.id } });
  if (checkout.status !== 201) throw new Error(`checkout init failed: ${JSON.stringify(checkout.body)}`);
  return { api, mine, other, license: issued.license, licenseKey: issued.licenseKey, sessionId: checkout.body.sessionId as string };
}

/** The Connect flow of sandbox mode, minus its authorize page: start, then the callback with a sandbox code. */
async function connectInSandbox(api: TestApi, apiKey: string) {
  const start = await api.call('POST', '/connect/start', { key: apiKey });
  const state = new URL(start.body.url).searchParams.get('state')!;
  const callback = await api.call('GET', `/connect/callback?${new URLSearchParams({ code: SANDBOX_CODE, state })}`);
  if (callback.status !== 200) throw new Error(`connect failed: ${JSON.stringify(callback.body)}`);
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

/** Every route of issues 2 and 3, so no loop forgets one. */
export function routeTable(w: World): Route[] {
  const product = w.mine.product.id as string;
  const license = w.license.id as string;
  const session = w.sessionId;
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
    { name: 'GET /connect/status', method: 'GET', path: () => '/connect/status', auth: 'secret' },
    { name: 'POST /connect/start', method: 'POST', path: () => '/connect/start', auth: 'secret' },
    // Without code and state: a browser landing here by itself is refused (400).
    { name: 'GET /connect/callback', method: 'GET', path: () => '/connect/callback', auth: 'none' },
    {
      name: 'POST /checkout/init', method: 'POST', path: () => '/checkout/init', auth: 'any',
      body: () => ({ productId: product, email: 'buyer@example.com', successUrl: 'https://app.example.com/thanks', cancelUrl: 'https://app.example.com/cart' }),
    },
    { name: 'GET /checkout/status/:sessionId', method: 'GET', path: (id = session) => `/checkout/status/${id}`, auth: 'none', hasIdParam: true },
    { name: 'GET /checkout/success', method: 'GET', path: () => '/checkout/success', auth: 'none' },
    { name: 'GET /checkout/cancel', method: 'GET', path: () => '/checkout/cancel', auth: 'none' },
    // Its body is Stripe's signed event, not a JSON input of ours: the body loops send it junk only.
    { name: 'POST /webhooks/stripe-events', method: 'POST', path: () => '/webhooks/stripe-events', auth: 'none' },
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
