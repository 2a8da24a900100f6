import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeSigner } from '../../src/adapters/crypto/node-signer.ts';
import { openPostgresStore, type PostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import { LicenseClient, type ApiError, type Jwks } from '../../src/client/index.ts';
import { KEYS_FILE } from '../../src/client/trust.ts';
import { utf8 } from '../../src/domain/base64url.ts';
import { assembleStatement, endorsementSigningInput } from '../../src/domain/key-statements.ts';
import { assembleLicenseKey, signingInputFor, type LicenseClaims } from '../../src/domain/license-key.ts';
import { answerSigningInput } from '../../src/domain/signed-answer.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';
import { apiOf, freshPostgresSchema, randomMasterKey, startServer, type RunningServer } from '../support/server-process.ts';
import { DAY, tempDirs } from './support.ts';

// docs/key-rotation.md, end to end: the real service, an application that shipped with the JWKS of
// before a rotation, and an attacker who can answer in the service's place (a fetch that rewrites).
const tempDir = tempDirs();
const schema = freshPostgresSchema();
const masterKey = randomMasterKey();
let server: RunningServer;
let store: PostgresStore;
let signer: NodeSigner;

beforeAll(async () => {
  server = await startServer({ DATABASE_URL: schema.databaseUrl, MASTER_KEY: masterKey, LOG_LEVEL: 'warn' });
  store = await openPostgresStore(TEST_POSTGRES_URL, { schema: schema.name });
  signer = new NodeSigner(new Uint8Array(Buffer.from(masterKey, 'base64')));
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await store?.close();
  await schema.drop();
});

const call = apiOf(() => server);

/** A seller with a product, a license sold before any rotation, and the JWKS an app shipped with then. */
async function sellerBeforeRotation() {
  const signup = await call('POST', '/developers/signup', { body: { email: `seller-${crypto.randomUUID()}@example.com`, name: 'Acme' } });
  const { id: developerId, apiKey, publishableKey } = signup.body;
  const product = await call('POST', '/developers/products', { key: apiKey, body: { name: 'Editor', price: 900, currency: 'usd', features: ['pro'] } });
  const grant = async () => {
    const reply = await call('POST', '/developers/licenses', { key: apiKey, body: { productId: product.body.id, email: 'buyer@example.com' } });
    expect(reply.status).toBe(201);
    return reply.body.licenseKey as string;
  };
  const shipped: Jwks = (await call('GET', `/developers/${developerId}/jwks.json`)).body;
  const rotate = async (body: object) => {
    const reply = await call('POST', '/developers/signing-keys/rotate', { key: apiKey, body });
    expect(reply.status).toBe(201);
    return reply.body as { kid: string; status: string };
  };
  return { developerId, publishableKey, productId: product.body.id as string, grant, shipped, rotate, soldBefore: await grant(), oldKid: shipped.keys[0]!.kid! };
}

type Seller = Awaited<ReturnType<typeof sellerBeforeRotation>>;

function app(seller: Seller, options: { cacheDir?: string; fetch?: typeof fetch; baseUrl?: string; errors?: ApiError[] } = {}) {
  return new LicenseClient({
    baseUrl: options.baseUrl ?? server.url,
    apiKey: seller.publishableKey,
    productId: seller.productId,
    publicKeys: seller.shipped,
    cacheDir: options.cacheDir ?? tempDir(),
    fingerprint: 'c'.repeat(64),
    fetch: options.fetch,
    onError: (error) => options.errors?.push(error),
  });
}

/** A key pair the seller never made, as an attacker would. */
function attackerKey() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { kid: `kid_attacker${crypto.randomUUID().slice(0, 8)}`, x: publicKey.export({ format: 'jwk' }).x!, sign: (input: string) => new Uint8Array(sign(null, utf8.encode(input), privateKey)) };
}

function licenseClaims(seller: Seller, claims: Partial<LicenseClaims> = {}): LicenseClaims {
  return { iss: server.url, sub: seller.developerId, id: `lic_forged${crypto.randomUUID().slice(0, 6)}`, productId: seller.productId, features: ['pro'], issuedAt: Date.now(), expiresAt: null, ...claims };
}

function signedLicense(kid: string, signWith: (input: string) => Uint8Array, claims: LicenseClaims): string {
  const input = signingInputFor(kid, claims);
  return assembleLicenseKey(input, signWith(input));
}

/** The seller's own private key, as whoever stole it holds it. */
async function stolen(kid: string) {
  const key = (await store.signingKeys.byKid(kid))!;
  return (input: string) => signer.sign(key.sealedPrivateKey, utf8.encode(input));
}

/** An attacker between the app and the service: the seller's JWKS comes back with `extra` statements added. */
function jwksWith(extra: { kid: string; x: string; endorsement: string }): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await fetch(input, init);
    if (!String(input).endsWith('/jwks.json')) return response;
    const jwks = await response.json();
    jwks.keys.unshift({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', status: 'next', notBefore: 0, ...extra });
    return Response.json(jwks);
  }) as typeof fetch;
}

/** An attacker answering validations itself: the genuine body, signed (for this very request) with `kid`. */
function answersSignedBy(kid: string, signWith: (input: string) => Uint8Array): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await fetch(input, init);
    if (!String(input).endsWith('/licenses/validate')) return response;
    const text = await response.text();
    const headers = new Headers(init?.headers);
    const { machineFingerprint } = JSON.parse(String(init?.body));
    const context = { op: 'validate' as const, serverTime: Date.now(), nonce: headers.get('licensing-nonce')!, machineFingerprint };
    const { header, input: signingInput } = answerSigningInput(kid, context, text);
    const signature = Buffer.from(signWith(signingInput)).toString('base64url');
    return new Response(text, { status: 200, headers: { 'content-type': 'application/json', 'licensing-signature': `${header}..${signature}` } });
  }) as typeof fetch;
}

describe('an app shipped before a rotation (real server, PostgreSQL)', () => {
  test('accepts a license signed after the rotation and its verified answers, with no warning, online and then offline', async () => {
    const seller = await sellerBeforeRotation();
    const rotation = await seller.rotate({ notBefore: 0 });
    const soldAfter = await seller.grant();
    const cacheDir = tempDir();
    const errors: ApiError[] = [];
    const client = app(seller, { cacheDir, errors });

    await client.storeLicenseKey(soldAfter);
    const online = await client.check();

    expect(rotation.status).toBe('current');
    expect(online).toMatchObject({ valid: true, offlineVerified: false, machineBound: true });
    expect(online.warning).toBeUndefined();
    expect(errors).toEqual([]);
    // What it learned is kept: the next run, with the service out of reach, still knows the new key.
    expect(existsSync(join(cacheDir, KEYS_FILE))).toBe(true);
    const offline = await app(seller, { cacheDir, baseUrl: 'http://127.0.0.1:9' }).check();
    expect(offline).toMatchObject({ valid: true, offlineVerified: true });
  }, 60_000);

  test('a license sold before keeps verifying, and its answers, now signed by the new key, are believed', async () => {
    const seller = await sellerBeforeRotation();
    await seller.rotate({ notBefore: 0 });
    const client = app(seller);
    await client.storeLicenseKey(seller.soldBefore);

    const result = await client.check({ online: true });

    expect(result).toMatchObject({ valid: true, offlineVerified: false });
    expect(result.warning).toBeUndefined();
  }, 60_000);

  test('a staged rotation: the next key is published as next and the app learns it before it signs', async () => {
    const seller = await sellerBeforeRotation();
    const next = await seller.rotate({ notBefore: Date.now() + 7 * 86_400_000 });
    const cacheDir = tempDir();
    const client = app(seller, { cacheDir });
    await client.storeLicenseKey(seller.soldBefore);

    const result = await client.check({ online: true });
    const jwks = (await call('GET', `/developers/${seller.developerId}/jwks.json`)).body;

    expect(next.status).toBe('next');
    expect(jwks.keys.map((k: { kid: string; status: string }) => [k.kid, k.status])).toEqual([[next.kid, 'next'], [seller.oldKid, 'current']]);
    expect(result).toMatchObject({ valid: true, offlineVerified: false });
    expect(result.warning).toBeUndefined();
    expect(JSON.parse(readFileSync(join(cacheDir, KEYS_FILE), 'utf8')).statements).toEqual([jwks.keys[0].endorsement]);
  }, 60_000);
});

describe('what the app refuses', () => {
  test('a key endorsed by a key it never trusted: the license is invalid_signature', async () => {
    const seller = await sellerBeforeRotation();
    const stranger = attackerKey();
    const forged = attackerKey();
    const input = endorsementSigningInput(stranger.kid, { sub: seller.developerId, kid: forged.kid, x: forged.x, notBefore: 0, iat: Date.now() });
    const endorsement = assembleStatement(input, stranger.sign(input));
    const client = app(seller, { fetch: jwksWith({ kid: forged.kid, x: forged.x, endorsement }) });

    await client.storeLicenseKey(signedLicense(forged.kid, forged.sign, licenseClaims(seller)));

    expect(await client.check()).toEqual({ valid: false, reason: 'invalid_signature', offlineVerified: false });
  }, 60_000);

  test('an endorsement that names a trusted key as its signer but does not verify with it is refused', async () => {
    const seller = await sellerBeforeRotation();
    const forged = attackerKey();
    const input = endorsementSigningInput(seller.oldKid, { sub: seller.developerId, kid: forged.kid, x: forged.x, notBefore: 0, iat: Date.now() });
    const client = app(seller, { fetch: jwksWith({ kid: forged.kid, x: forged.x, endorsement: assembleStatement(input, forged.sign(input)) }) });

    await client.storeLicenseKey(signedLicense(forged.kid, forged.sign, licenseClaims(seller)));

    expect(await client.check()).toEqual({ valid: false, reason: 'invalid_signature', offlineVerified: false });
  }, 60_000);

  test('after a compromised rotation: the stolen key’s later licenses, its endorsements and its answers are refused; what it signed before stands', async () => {
    const seller = await sellerBeforeRotation();
    const withStolenKey = await stolen(seller.oldKid);
    const rotation = await seller.rotate({ compromised: true });
    const cacheDir = tempDir();
    const errors: ApiError[] = [];
    const honest = app(seller, { cacheDir, errors });
    await honest.storeLicenseKey(seller.soldBefore);

    // The first answer, signed by the successor, tells of the retirement.
    const before = await honest.check({ online: true });
    expect(before).toMatchObject({ valid: true, offlineVerified: false });
    expect(before.warning).toBeUndefined();
    expect(rotation.status).toBe('current');

    // A license the thief signs now.
    const lateLicense = signedLicense(seller.oldKid, withStolenKey, licenseClaims(seller, { issuedAt: Date.now() }));
    const late = app(seller, { cacheDir, baseUrl: 'http://127.0.0.1:9' });
    await late.storeLicenseKey(lateLicense);
    expect(await late.check()).toEqual({ valid: false, reason: 'invalid_signature', offlineVerified: false });

    // A key the thief endorses, dated before the compromise to look legitimate.
    const thiefsKey = attackerKey();
    const input = endorsementSigningInput(seller.oldKid, { sub: seller.developerId, kid: thiefsKey.kid, x: thiefsKey.x, notBefore: 0, iat: Date.now() - DAY });
    const endorsement = assembleStatement(input, withStolenKey(input));
    const viaThief = app(seller, { cacheDir, fetch: jwksWith({ kid: thiefsKey.kid, x: thiefsKey.x, endorsement }) });
    await viaThief.storeLicenseKey(signedLicense(thiefsKey.kid, thiefsKey.sign, licenseClaims(seller, { issuedAt: Date.now() - DAY })));
    expect(await viaThief.check()).toEqual({ valid: false, reason: 'invalid_signature', offlineVerified: false });

    // An answer the thief signs in the service's place: no answer, with a warning.
    const answeredByThief = app(seller, { cacheDir, errors, fetch: answersSignedBy(seller.oldKid, withStolenKey) });
    await answeredByThief.storeLicenseKey(seller.soldBefore);
    const forgedAnswer = await answeredByThief.check({ online: true });
    expect(forgedAnswer).toMatchObject({ valid: true, offlineVerified: true, warning: { code: 'unverified_answer', message: expect.stringContaining('compromised') } });

    // What the app kept: the successor's endorsement and the retirement, nothing of the thief's.
    const kept = JSON.parse(readFileSync(join(cacheDir, KEYS_FILE), 'utf8')).statements as string[];
    expect(kept).toHaveLength(2);
    expect(kept.join()).not.toContain(endorsement);
  }, 60_000);
});
