import { describe, expect, test } from 'bun:test';
import { ApiError, CheckoutError, CHECKOUT_POLL_INTERVAL_MS, CHECKOUT_TIMEOUT_MS, type CheckoutProgress, type LicenseDetails } from '../../src/client/index.ts';
import { BASE_URL, clock, fakeFetch, json, newClient, sellerKey, T0, tempDirs, type Call } from './support.ts';

const tempDir = tempDirs();
const seller = sellerKey();
const KEY = seller.issue();
const LICENSE: LicenseDetails = { id: 'lic_1', productId: 'prod_1', status: 'active', features: ['pro'], issuedAt: T0, expiresAt: null };
const SESSION = { sessionId: 'cs_1', checkoutUrl: 'http://licensing.test/v1/sandbox/checkout/cs_1' };

/** A checkout server whose status answers follow `statuses` (the last one repeats), and a sleep that only moves the clock. */
function setup(statuses: (() => Response)[]) {
  const time = clock();
  const slept: number[] = [];
  let polls = 0;
  const net = fakeFetch((call: Call) => {
    if (call.url.endsWith('/checkout/init')) return json(SESSION, 201);
    return statuses[Math.min(polls++, statuses.length - 1)]!();
  });
  const sleep = async (ms: number, signal?: AbortSignal) => {
    if (signal?.aborted) throw signal.reason;
    slept.push(ms);
    time.advance(ms);
  };
  const progress: CheckoutProgress[] = [];
  const client = newClient({ publicKeys: seller.jwks, cacheDir: tempDir(), fetch: net.fetch, now: time.now, sleep });
  return { client, net, slept, progress, onProgress: (p: CheckoutProgress) => progress.push(p) };
}

const pending = () => json({ status: 'pending' });
const complete = () => json({ status: 'complete', licenseKey: KEY, license: LICENSE });
const expired = () => json({ status: 'expired' });

describe('checkout(): init, then poll every 2 seconds for at most 10 minutes', () => {
  test('a completed session returns the key and stores it, after the URL was handed out and progress reported on each poll', async () => {
    const { client, net, slept, progress, onProgress } = setup([pending, pending, complete]);
    const urls: string[] = [];

    const done = await client.checkout({ productId: 'prod_1', email: 'buyer@example.com', onProgress, onCheckoutUrl: (url) => void urls.push(url) });

    expect(done).toEqual({ licenseKey: KEY, license: LICENSE });
    expect(await client.getCachedLicenseKey()).toBe(KEY);
    expect(urls).toEqual([SESSION.checkoutUrl]);
    expect(slept).toEqual([CHECKOUT_POLL_INTERVAL_MS, CHECKOUT_POLL_INTERVAL_MS, CHECKOUT_POLL_INTERVAL_MS]);
    expect(progress.map((p) => [p.status, p.elapsedMs])).toEqual([['started', 0], ['pending', 2000], ['pending', 4000], ['complete', 6000]]);
    expect(progress.every((p) => p.sessionId === 'cs_1' && p.checkoutUrl === SESSION.checkoutUrl)).toBe(true);
    expect(net.calls[0]).toMatchObject({ method: 'POST', url: `${BASE_URL}/checkout/init`, headers: { 'x-api-key': 'pk_test' }, body: { productId: 'prod_1', email: 'buyer@example.com' } });
    expect(net.calls.slice(1).map((c) => `${c.method} ${c.url}`)).toEqual(Array(3).fill(`GET ${BASE_URL}/checkout/status/cs_1`));
  });

  test('an expired session throws CheckoutError expired and stores nothing', async () => {
    const { client } = setup([pending, expired]);

    const error = await client.checkout({ productId: 'prod_1' }).catch((e) => e);

    expect(error).toBeInstanceOf(CheckoutError);
    expect(error.kind).toBe('expired');
    expect(await client.getCachedLicenseKey()).toBeNull();
  });

  test('a session still pending after 10 minutes throws CheckoutError timeout after the 300th poll', async () => {
    const { client, net, slept } = setup([pending]);

    const error = await client.checkout({ productId: 'prod_1' }).catch((e) => e);

    expect(error).toBeInstanceOf(CheckoutError);
    expect(error.kind).toBe('timeout');
    expect(slept.reduce((a, b) => a + b, 0)).toBe(CHECKOUT_TIMEOUT_MS);
    expect(net.calls).toHaveLength(1 + CHECKOUT_TIMEOUT_MS / CHECKOUT_POLL_INTERVAL_MS);
  });

  test('aborting the signal while polling throws CheckoutError aborted and stops polling', async () => {
    const controller = new AbortController();
    const { client, net } = setup([pending]);
    const onProgress = (p: CheckoutProgress) => {
      if (p.status === 'pending') controller.abort();
    };

    const error = await client.checkout({ productId: 'prod_1', signal: controller.signal, onProgress }).catch((e) => e);

    expect(error).toBeInstanceOf(CheckoutError);
    expect(error.kind).toBe('aborted');
    expect(net.calls).toHaveLength(2);
  });

  test('an already aborted signal throws aborted before any request', async () => {
    const { client, net } = setup([pending]);

    const error = await client.checkout({ productId: 'prod_1', signal: AbortSignal.abort() }).catch((e) => e);

    expect(error.kind).toBe('aborted');
    expect(net.calls).toHaveLength(0);
  });

  test('a network blip or a 5xx while polling is retried at the next poll', async () => {
    const blip = () => {
      throw new TypeError('fetch failed');
    };
    const down = () => json({ error: { code: 'unavailable', message: 'down' } }, 503);
    const { client, progress, onProgress } = setup([blip, down, complete]);

    const done = await client.checkout({ productId: 'prod_1', onProgress });

    expect(done.licenseKey).toBe(KEY);
    expect(progress.map((p) => p.status)).toEqual(['started', 'complete']);
  });

  test('an init the server refuses throws its ApiError (e.g. 409 not_connected)', async () => {
    const net = fakeFetch(() => json({ error: { code: 'not_connected', message: 'The seller has not connected a payment account.' } }, 409));
    const client = newClient({ publicKeys: seller.jwks, cacheDir: tempDir(), fetch: net.fetch });

    const error = await client.checkout({ productId: 'prod_1' }).catch((e) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code]).toEqual([409, 'not_connected']);
  });

  test('an unreachable server at init throws CheckoutError http', async () => {
    const net = fakeFetch(() => Promise.reject(new TypeError('fetch failed')));
    const client = newClient({ publicKeys: seller.jwks, cacheDir: tempDir(), fetch: net.fetch });

    const error = await client.checkout({ productId: 'prod_1' }).catch((e) => e);

    expect(error).toBeInstanceOf(CheckoutError);
    expect(error.kind).toBe('http');
  });

  test('without an injected sleep, aborting during the 2-second wait ends the checkout at once as aborted', async () => {
    const controller = new AbortController();
    const net = fakeFetch((call) => (call.url.endsWith('/checkout/init') ? json(SESSION, 201) : pending()));
    const client = newClient({ publicKeys: seller.jwks, cacheDir: tempDir(), fetch: net.fetch });

    const error = await client.checkout({ productId: 'prod_1', signal: controller.signal, onCheckoutUrl: () => void setTimeout(() => controller.abort(), 5) }).catch((e) => e);

    expect(error.kind).toBe('aborted');
    expect(net.calls).toHaveLength(1);
  });
});
