import { hostname } from 'node:os';
import { beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sellerKey, tempDirs } from './support.ts';

const ROOT = join(import.meta.dir, '..', '..');
const tempDir = tempDirs();
let bundle = '';

/** Node cannot import .ts: the library is bundled to one ESM file first, as a seller's build would. */
beforeAll(async () => {
  const outdir = tempDir();
  const built = await Bun.build({ entrypoints: [join(ROOT, 'src/client/index.ts')], target: 'node', format: 'esm', outdir });
  if (!built.success) throw new Error(built.logs.join('\n'));
  bundle = pathToFileURL(built.outputs[0]!.path).href;
});

/** Runs an ES module script with `node`, the bundle's URL and a JSON input in its environment; returns its JSON output. */
async function node(script: string, input: unknown): Promise<any> {
  const proc = Bun.spawn(['node', '--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '', HOME: tempDir(), BUNDLE: bundle, INPUT: JSON.stringify(input) },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`node exited with ${code}: ${err}`);
  return JSON.parse(out);
}

describe('the client library on Node ≥ 20', () => {
  test('node is the version the library promises to support', async () => {
    const version = await node(`console.log(JSON.stringify(process.versions.node))`, null);
    expect(Number(version.split('.')[0])).toBeGreaterThanOrEqual(20);
  });

  test('verifies a real key offline (the server unreachable), caches it in a file and computes the fingerprint', async () => {
    const seller = sellerKey();
    const input = { jwks: seller.jwks, key: seller.issue(), forged: sellerKey(seller.kid).issue(), cacheDir: join(tempDir(), 'app') };
    const script = `
      const { LicenseClient, machineFingerprint } = await import(process.env.BUNDLE);
      const { jwks, key, forged, cacheDir } = JSON.parse(process.env.INPUT);
      const fetch = async () => { throw new TypeError('fetch failed'); };
      const client = new LicenseClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'pk_test', productId: 'prod_1', publicKeys: jwks, cacheDir, fetch });
      await client.storeLicenseKey(key);
      const valid = await client.check();
      await client.storeLicenseKey(forged);
      const invalid = await client.check();
      const vector = await machineFingerprint({ hostname: 'build-box.local', username: 'ada', os: 'linux', arch: 'amd64' });
      const own = await client.fingerprint();
      const { readdirSync } = await import('node:fs');
      console.log(JSON.stringify({ valid, invalid, vector, own, files: readdirSync(cacheDir) }));`;

    const result = await node(script, input);

    expect(result.valid).toMatchObject({ valid: true, offlineVerified: true, license: { id: 'lic_1', productId: 'prod_1' } });
    expect(result.invalid).toEqual({ valid: false, reason: 'invalid_signature', offlineVerified: false });
    expect(result.vector).toBe(createHash('sha256').update('build-box.local\nada\nlinux\namd64').digest('hex'));
    expect(result.own).toMatch(/^[0-9a-f]{64}$/);
    expect(result.files).toEqual(['license.json']);
  });

  test('asks a real HTTP server with Node\'s own fetch and binds the machine', async () => {
    const seller = sellerKey();
    const requests: unknown[] = [];
    const server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: async (request) => {
        const body = await request.json();
        requests.push({ path: new URL(request.url).pathname, apiKey: request.headers.get('x-api-key'), body });
        // Signed as the server signs, for the nonce the client sent (docs/signed-answers.md).
        const call = { method: request.method, url: request.url, headers: Object.fromEntries(request.headers.entries()), body };
        return seller.answer(call, { valid: true, license: { id: 'lic_1', status: 'active', features: ['pro'], expiresAt: null } });
      },
    });
    const input = { jwks: seller.jwks, key: seller.issue(), cacheDir: tempDir(), baseUrl: `http://127.0.0.1:${server.port}/v1/` };
    const script = `
      const { LicenseClient } = await import(process.env.BUNDLE);
      const { jwks, key, cacheDir, baseUrl } = JSON.parse(process.env.INPUT);
      const client = new LicenseClient({ baseUrl, apiKey: 'pk_test', productId: 'prod_1', publicKeys: jwks, cacheDir, fingerprint: 'f'.repeat(64) });
      await client.storeLicenseKey(key);
      console.log(JSON.stringify(await client.check()));`;

    const result = await node(script, input).finally(() => server.stop(true));

    expect(result).toMatchObject({ valid: true, offlineVerified: false, machineBound: true, machineFingerprint: 'f'.repeat(64) });
    // The machine is named by its host name (Node's os.hostname(), the machine this test runs on).
    expect(requests).toEqual([{ path: '/v1/licenses/validate', apiKey: 'pk_test', body: { licenseKey: input.key, machineFingerprint: 'f'.repeat(64), productId: 'prod_1', machineName: hostname() } }]);
  });
});
