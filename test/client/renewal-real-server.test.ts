import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { NodeSigner } from '../../src/adapters/crypto/node-signer.ts';
import { openPostgresStore, type PostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import { renewLicense } from '../../src/app/licenses/reissue-license.ts';
import { LicenseClient } from '../../src/client/index.ts';
import { depsFor } from '../support/deps.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';
import { apiOf, freshPostgresSchema, randomMasterKey, startServer, type RunningServer } from '../support/server-process.ts';
import { DAY, tempDirs } from './support.ts';

const tempDir = tempDirs();
const schema = freshPostgresSchema();
const masterKey = randomMasterKey();
let server: RunningServer;
let store: PostgresStore;

/** The real service on PostgreSQL; the test renews licenses in the same database, as a paid invoice would. */
beforeAll(async () => {
  server = await startServer({ DATABASE_URL: schema.databaseUrl, MASTER_KEY: masterKey, LOG_LEVEL: 'warn' });
  store = await openPostgresStore(TEST_POSTGRES_URL, { schema: schema.name });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await store?.close();
  await schema.drop();
});

const call = apiOf(() => server);

/** A seller with a 30-day license granted over HTTP, and the renewal use case wired to the service's database and master key. */
async function grantedFor30Days() {
  const signup = await call('POST', '/developers/signup', { body: { email: `seller-${crypto.randomUUID()}@example.com`, name: 'Acme' } });
  const { id: developerId, apiKey, publishableKey } = signup.body;
  const product = await call('POST', '/developers/products', { key: apiKey, body: { name: 'Editor', price: 900, currency: 'usd', features: ['pro'] } });
  const expiresAt = Date.now() + 30 * DAY;
  const grant = await call('POST', '/developers/licenses', { key: apiKey, body: { productId: product.body.id, email: 'buyer@example.com', expiresAt } });
  expect(grant.status).toBe(201);
  const jwks = (await call('GET', `/developers/${developerId}/jwks.json`)).body;
  const deps = { ...depsFor(store, undefined, { issuer: server.url }), signer: new NodeSigner(new Uint8Array(Buffer.from(masterKey, 'base64'))) };
  return { publishableKey, productId: product.body.id as string, jwks, licenseId: grant.body.license.id as string, licenseKey: grant.body.licenseKey as string, expiresAt, deps };
}

describe('a renewed license reaches the client on its next online check (real server, PostgreSQL)', () => {
  test('check({ online: true }) replaces the stored key in the file, and the next offline check uses the new one', async () => {
    const seller = await grantedFor30Days();
    const cacheDir = tempDir();
    let now = Date.now();
    const app = (baseUrl: string) =>
      new LicenseClient({ baseUrl, apiKey: seller.publishableKey, productId: seller.productId, publicKeys: seller.jwks, cacheDir, fingerprint: 'f'.repeat(64), now: () => now });
    const client = app(server.url);
    await client.storeLicenseKey(seller.licenseKey);
    expect((await client.check()).valid).toBe(true);

    const renewed = await renewLicense(seller.deps, seller.licenseId, seller.expiresAt + 30 * DAY);
    const online = await client.check({ online: true });

    expect(online).toMatchObject({ valid: true, offlineVerified: false, renewedLicenseKey: renewed.licenseKey, license: { id: seller.licenseId, expiresAt: renewed.expiresAt } });
    const [file] = readdirSync(cacheDir);
    expect(JSON.parse(readFileSync(join(cacheDir, file!), 'utf8')).current.licenseKey).toBe(renewed.licenseKey);

    // Past the old key's end, with the service out of reach: the new key alone answers.
    now = seller.expiresAt + DAY;
    const offline = await app('http://127.0.0.1:9').check();

    expect(offline).toMatchObject({ valid: true, offlineVerified: true, license: { expiresAt: renewed.expiresAt } });
  }, 60_000);

  test('a client whose key already expired gets the renewed key from an online check', async () => {
    const seller = await grantedFor30Days();
    let now = Date.now();
    const client = new LicenseClient({ baseUrl: server.url, apiKey: seller.publishableKey, productId: seller.productId, publicKeys: seller.jwks, cacheDir: tempDir(), fingerprint: 'e'.repeat(64), now: () => now });
    await client.storeLicenseKey(seller.licenseKey);
    const renewed = await renewLicense(seller.deps, seller.licenseId, seller.expiresAt + 30 * DAY);
    now = seller.expiresAt + DAY;

    expect(await client.check()).toMatchObject({ valid: false, reason: 'expired' });
    expect(await client.check({ online: true })).toMatchObject({ valid: true, renewedLicenseKey: renewed.licenseKey });
    expect(await client.getCachedLicenseKey()).toBe(renewed.licenseKey);
  }, 60_000);

  test('a revoked license: the old key gets revoked, and no key', async () => {
    const seller = await grantedFor30Days();
    const client = new LicenseClient({ baseUrl: server.url, apiKey: seller.publishableKey, productId: seller.productId, publicKeys: seller.jwks, cacheDir: tempDir(), fingerprint: 'd'.repeat(64) });
    await client.storeLicenseKey(seller.licenseKey);
    await renewLicense(seller.deps, seller.licenseId, seller.expiresAt + 30 * DAY);
    await store.licenses.update(seller.licenseId, { storedStatus: 'revoked' });

    expect(await client.check({ online: true })).toEqual({ valid: false, reason: 'revoked', offlineVerified: false });
    expect(await client.getCachedLicenseKey()).toBe(seller.licenseKey);
  }, 60_000);
});
