import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { SLOW, useChromium } from '../browser/browser.ts';
import { sellerKey, tempDirs } from './support.ts';

const ROOT = join(import.meta.dir, '..', '..');
const tempDir = tempDirs();
const chrome = useChromium();
let server: ReturnType<typeof Bun.serve> | undefined;

/** The library bundled for browsers and served from the loopback address with an empty page. */
beforeAll(async () => {
  const built = await Bun.build({ entrypoints: [join(ROOT, 'src/client/index.ts')], target: 'browser', format: 'esm', outdir: tempDir() });
  if (!built.success) throw new Error(built.logs.join('\n'));
  const code = await built.outputs[0]!.text();
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) =>
      new URL(request.url).pathname === '/client.js'
        ? new Response(code, { headers: { 'content-type': 'text/javascript' } })
        : new Response('<!doctype html><title>app</title>', { headers: { 'content-type': 'text/html' } }),
  });
}, SLOW);
afterAll(() => server?.stop(true));

describe('the client library in a browser, with nothing but the page', () => {
  test('verifies a key offline with WebCrypto and keeps it in localStorage', async () => {
    const seller = sellerKey();
    const page = await chrome.page();
    await page.goto(`http://127.0.0.1:${server!.port}/`);
    const input = { jwks: seller.jwks, key: seller.issue() };

    const result = await page.evaluate(async ({ jwks, key }) => {
      const { LicenseClient, machineFingerprint } = await import('/client.js' as string);
      const fetch = async () => {
        throw new TypeError('offline');
      };
      const client = new LicenseClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'pk_test', productId: 'prod_1', publicKeys: jwks, appName: 'acme', fetch });
      await client.storeLicenseKey(key);
      const again = new LicenseClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'pk_test', productId: 'prod_1', publicKeys: jwks, appName: 'acme', fetch });
      return {
        check: await again.check(),
        stored: JSON.parse(localStorage.getItem('acme:license') ?? 'null')?.current?.licenseKey,
        vector: await machineFingerprint({ hostname: 'build-box.local', username: 'ada', os: 'linux', arch: 'amd64' }),
        own: await client.fingerprint(),
      };
    }, input);

    expect(result.check).toMatchObject({ valid: true, offlineVerified: true, license: { id: 'lic_1' } });
    expect(result.stored).toBe(input.key);
    expect(result.vector).toBe(createHash('sha256').update('build-box.local\nada\nlinux\namd64').digest('hex'));
    expect(result.own).toMatch(/^[0-9a-f]{64}$/);
    expect(chrome.blocked).toEqual([]);
  }, SLOW);
});
