import { describe, expect, test } from 'bun:test';
import { LicenseClient, verifyMachineFile, type Jwks } from '../../src/client/index.ts';
import { decodeBase64url, encodeBase64url, utf8 } from '../../src/domain/base64url.ts';
import { decodeJson, encodeJson } from '../../src/domain/license-key.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { FINGERPRINT, HOUR, tempDirs } from './support.ts';

/**
 * Machine files (docs/machine-files.md) issued by the real HTTP app and checked by the client
 * library with no network: each refusal has its reason.
 */
const tempDir = tempDirs();
const MINUTE = 60_000;

async function issued(api: TestApi = testApi()) {
  const s = await seller(api);
  const { license, licenseKey } = await s.grant();
  const jwks = async () => (await api.call('GET', `/developers/${s.id}/jwks.json`)).body as Jwks;
  const shipped = await jwks();
  const issue = async (body: Record<string, unknown> = {}) => {
    const reply = await api.call('POST', '/licenses/machine-file', { key: s.publishableKey, body: { licenseKey, machineFingerprint: FINGERPRINT, productId: s.product.id, ...body } });
    if (reply.status !== 201) throw new Error(JSON.stringify(reply.body));
    return reply.body as { machineFile: string; file: { issuedAt: number; expiresAt: number } };
  };
  const { machineFile, file } = await issue();
  const offline = (options: Partial<Parameters<typeof verifyMachineFile>[1]> = {}, text = machineFile) =>
    verifyMachineFile(text, { publicKeys: shipped, fingerprint: FINGERPRINT, now: file.issuedAt, productId: s.product.id, ...options });
  return { api, s, license, licenseKey, shipped, jwks, issue, machineFile, file, offline };
}

/** The same file with one byte of its signature changed. */
function flipSignatureByte(jws: string): string {
  const [h, p, s] = jws.split('.');
  const signature = decodeBase64url(s!)!;
  signature[10] = signature[10]! ^ 0x01;
  return `${h}.${p}.${encodeBase64url(signature)}`;
}

/** The same file claiming something else, its signature kept. */
function withClaims(jws: string, change: Record<string, unknown>): string {
  const [h, p, s] = jws.split('.');
  return `${h}.${encodeJson({ ...(decodeJson(p!) as object), ...change })}.${s}`;
}

describe('verifyMachineFile: offline, with the seller’s shipped JWKS', () => {
  test('a file for this machine, within its time: valid, with its claims', async () => {
    const { offline, license, file } = await issued();
    expect(await offline()).toEqual({ valid: true, file: expect.objectContaining({ licenseId: license.id, issuedAt: file.issuedAt, expiresAt: file.expiresAt, features: ['pro'] }) });
  });

  test('one flipped byte (signature or claims): signature; not a machine file at all: format', async () => {
    const { offline, machineFile } = await issued();
    expect(await offline({}, flipSignatureByte(machineFile))).toEqual({ valid: false, reason: 'signature' });
    expect(await offline({}, withClaims(machineFile, { expiresAt: Date.UTC(2099, 0, 1) }))).toEqual({ valid: false, reason: 'signature' });
    for (const junk of ['', 'a.b.c', machineFile.split('.').slice(0, 2).join('.'), 42]) expect(await offline({}, junk as string)).toEqual({ valid: false, reason: 'format' });
  });

  test('another machine: machine; another product: product', async () => {
    const { offline } = await issued();
    expect(await offline({ fingerprint: 'b'.repeat(64) })).toEqual({ valid: false, reason: 'machine' });
    expect(await offline({ productId: 'prod_other' })).toEqual({ valid: false, reason: 'product' });
  });

  test('before its issue time by more than 5 minutes: not_yet_valid (within 5 minutes: valid)', async () => {
    const { offline, file } = await issued();
    expect((await offline({ now: file.issuedAt - 4 * MINUTE })).valid).toBe(true);
    expect(await offline({ now: file.issuedAt - 6 * MINUTE })).toEqual({ valid: false, reason: 'not_yet_valid' });
  });

  test('a clock behind the highest time this client has seen: clock_rolled_back', async () => {
    const { offline, file } = await issued();
    expect(await offline({ now: file.issuedAt + HOUR, highestSeen: file.issuedAt + 3 * HOUR })).toEqual({ valid: false, reason: 'clock_rolled_back' });
    expect((await offline({ now: file.issuedAt + 2 * HOUR + MINUTE, highestSeen: file.issuedAt + 3 * HOUR })).valid).toBe(true);
  });

  test('at or past its expiry: expired', async () => {
    const { offline, file } = await issued();
    expect((await offline({ now: file.expiresAt - 1 })).valid).toBe(true);
    expect(await offline({ now: file.expiresAt })).toEqual({ valid: false, reason: 'expired' });
  });

  test('a file signed before a key rotation still verifies, with the old JWKS and with the new one; one signed after needs the new', async () => {
    const { api, s, offline, jwks, issue } = await issued();
    expect((await api.call('POST', '/developers/signing-keys/rotate', { key: s.apiKey })).status).toBe(201);
    const rotated = await jwks();
    expect(rotated.keys.length).toBe(2);
    expect((await offline()).valid).toBe(true);
    expect((await offline({ publicKeys: rotated })).valid).toBe(true);
    api.clock.advance(20_000); // past the signer's cached key
    const after = await issue();
    expect(await offline({ now: after.file.issuedAt }, after.machineFile)).toEqual({ valid: false, reason: 'signature' });
    expect((await offline({ now: after.file.issuedAt, publicKeys: rotated }, after.machineFile)).valid).toBe(true);
  });
});

describe('LicenseClient: requestMachineFile(), verifyMachineFile(), machineFileRequest()', () => {
  async function app(w: Awaited<ReturnType<typeof issued>>, options: { now: () => number; online?: boolean; cacheDir?: string }) {
    const route = (input: RequestInfo | URL, init?: RequestInit) => (options.online === false ? Promise.reject(new TypeError('offline')) : w.api.app.handle(new Request(input, init)));
    const client = new LicenseClient({
      baseUrl: 'http://localhost/v1', apiKey: w.s.publishableKey, productId: w.s.product.id, publicKeys: w.shipped, fingerprint: FINGERPRINT,
      cacheDir: options.cacheDir ?? tempDir(), now: options.now, fetch: route as typeof fetch,
    });
    await client.storeLicenseKey(w.licenseKey);
    return client;
  }

  /** A 10-day file checked out online, then accepted by the same machine offline 5 days later; `clock` moves that machine's time. */
  async function acceptedOffline() {
    const w = await issued();
    const cacheDir = tempDir();
    const clock = { now: w.api.clock.now() };
    const online = await app(w, { now: () => clock.now, cacheDir });
    const { machineFile } = await online.requestMachineFile({ ttlDays: 10 });
    clock.now += 5 * 24 * HOUR;
    const offline = await app(w, { now: () => clock.now, cacheDir, online: false });
    expect((await offline.verifyMachineFile(machineFile)).valid).toBe(true);
    return { offline, machineFile, clock };
  }

  test('a file checked out online verifies offline; a clock then set back past what this client saw is clock_rolled_back', async () => {
    const { offline, machineFile, clock } = await acceptedOffline();
    clock.now -= 3 * 24 * HOUR;
    expect(await offline.verifyMachineFile(machineFile)).toEqual({ valid: false, reason: 'clock_rolled_back' });
    clock.now += 9 * 24 * HOUR;
    expect(await offline.verifyMachineFile(machineFile)).toEqual({ valid: false, reason: 'expired' });
  });

  test('check() too distrusts a clock set back behind the time it accepted a machine file, on a machine that never validated online', async () => {
    const { offline, clock } = await acceptedOffline();
    expect(await offline.check()).toMatchObject({ valid: true });
    // Three days back: after the file's issue time (the only server time this machine has), before what its clock showed.
    clock.now -= 3 * 24 * HOUR;
    expect(await offline.check()).toMatchObject({ valid: false, reason: 'network_error', clockRollback: true });
    // Within the tolerance (one hour) of that reading, the clock is believed again.
    clock.now += 3 * 24 * HOUR - HOUR;
    expect(await offline.check()).toMatchObject({ valid: true });
  });

  test('the offline request file, posted by the seller as it is, gives a file this machine accepts', async () => {
    const w = await issued();
    const client = await app(w, { now: () => w.api.clock.now(), online: false });
    const request = JSON.parse(await client.machineFileRequest());
    expect(request).toEqual({ licenseKey: w.licenseKey, machineFingerprint: FINGERPRINT, productId: w.s.product.id });
    const reply = await w.api.call('POST', `/licenses/${w.license.id}/machine-files`, { key: w.s.apiKey, body: request });
    expect(reply.status).toBe(201);
    expect((await client.verifyMachineFile(reply.body.machineFile)).valid).toBe(true);
    expect(utf8.decode(decodeBase64url(reply.body.machineFile.split('.')[1])!)).not.toContain(FINGERPRINT);
  });
});

describe('an application that refuses the LICENSING_FINGERPRINT override (ignoreFingerprintEnv)', () => {
  /** A client with no `fingerprint` option, so the machine is what the library computes, with LICENSING_FINGERPRINT set meanwhile. */
  async function underOverride<T>(value: string, run: () => Promise<T>): Promise<T> {
    const before = process.env.LICENSING_FINGERPRINT;
    process.env.LICENSING_FINGERPRINT = value;
    try {
      return await run();
    } finally {
      if (before === undefined) delete process.env.LICENSING_FINGERPRINT;
      else process.env.LICENSING_FINGERPRINT = before;
    }
  }

  test('a machine file issued to the fingerprint another machine claims through the variable: machine, and the client’s fingerprint is its own', async () => {
    const w = await issued();
    const { licenseKey } = await w.s.grant();
    const { machineFile } = await w.issue({ licenseKey, machineFingerprint: 'container-42' });
    const client = (ignoreFingerprintEnv?: boolean) =>
      new LicenseClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: w.s.publishableKey, productId: w.s.product.id, publicKeys: w.shipped, cacheDir: tempDir(), now: () => w.file.issuedAt, ignoreFingerprintEnv });

    const [honoured, refused] = await underOverride('container-42', async () => {
      const [a, b] = [client(), client(true)];
      return [
        { fingerprint: await a.fingerprint(), verdict: await a.verifyMachineFile(machineFile) },
        { fingerprint: await b.fingerprint(), verdict: await b.verifyMachineFile(machineFile) },
      ];
    });

    expect(honoured).toEqual({ fingerprint: 'container-42', verdict: expect.objectContaining({ valid: true }) });
    expect(refused.verdict).toEqual({ valid: false, reason: 'machine' });
    expect(refused.fingerprint).not.toBe('container-42');
  });
});
