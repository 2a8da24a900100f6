/**
 * Checkout through the public API: a sandbox seller connected the way a browser would do it,
 * pending sessions for the status-polling load, and a small loader for whole checkouts
 * (init → pay on the sandbox page → status complete) with N concurrent buyers.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { LoadResult } from './wrk.ts';

export interface CheckoutSeller {
  publishableKey: string;
  productId: string;
}

async function call(url: string, init: RequestInit & { key?: string; json?: unknown } = {}): Promise<{ status: number; body: any }> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('x-api-key', init.key);
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  const response = await fetch(url, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body, redirect: 'manual' });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, body };
}

/** An answer other than the one a paying buyer expects (as opposed to a socket error). */
class UnexpectedReply extends Error {}

function expect(what: string, reply: { status: number; body: unknown }, status: number): any {
  if (reply.status !== status) throw new UnexpectedReply(`${what}: expected ${status}, got ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
  return reply.body;
}

/** A new developer (one per run and store), connected to the sandbox processor, with one product. */
export async function prepareSeller(base: string): Promise<CheckoutSeller> {
  const email = `bench-checkout-${Date.now()}-${randomBytes(4).toString('hex')}@example.com`;
  const signup = expect('signup', await call(`${base}/v1/developers/signup`, { method: 'POST', json: { email, name: 'Bench Checkout' } }), 201);
  const start = expect('connect/start', await call(`${base}/v1/connect/start`, { method: 'POST', key: signup.apiKey }), 200);
  const state = new URL(start.url).searchParams.get('state');
  if (!state) throw new Error(`connect/start gave no state: ${start.url}`);
  const code = `sbx_code_${randomBytes(18).toString('base64url')}`; // 24 characters after the prefix
  expect('connect/callback', await call(`${base}/v1/connect/callback?${new URLSearchParams({ code, state })}`), 200);
  const product = expect(
    'create product',
    await call(`${base}/v1/developers/products`, { method: 'POST', key: signup.apiKey, json: { name: 'Bench Checkout Pro', price: 1999, currency: 'usd', features: ['pro'] } }),
    201,
  );
  return { publishableKey: signup.publishableKey, productId: product.id };
}

async function init(base: string, seller: CheckoutSeller): Promise<string> {
  const reply = await call(`${base}/v1/checkout/init`, { method: 'POST', key: seller.publishableKey, json: { productId: seller.productId } });
  return expect('checkout/init', reply, 201).sessionId;
}

/** `count` pending sessions, written as `/v1/checkout/status/<id>` lines for get-random-path.lua. */
export async function createPendingSessions(base: string, seller: CheckoutSeller, count: number, file: string, concurrency = 8): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) ids[i] = await init(base, seller);
    }),
  );
  writeFileSync(file, `${ids.map((id) => `/v1/checkout/status/${id}`).join('\n')}\n`);
  const polled = expect('checkout/status', await call(`${base}/v1/checkout/status/${ids[0]}`), 200);
  if (polled.status !== 'pending') throw new Error(`a new session is not pending: ${JSON.stringify(polled)}`);
  return ids;
}

/** One whole checkout by a new buyer; throws on any step that does not answer as a paying buyer expects. */
async function checkoutOnce(base: string, seller: CheckoutSeller, buyer: number): Promise<void> {
  const sessionId = await init(base, seller);
  const form = new URLSearchParams({ email: `buyer-${buyer}-${sessionId.slice(-8)}@example.com`, phone: '+15551234567', cardNumber: '4242424242424242' });
  const paid = await call(`${base}/v1/sandbox/checkout/${sessionId}/pay`, { method: 'POST', body: form });
  expect('sandbox pay', paid, 303);
  const polled = expect('checkout/status', await call(`${base}/v1/checkout/status/${sessionId}`), 200);
  if (polled.status !== 'complete' || typeof polled.licenseKey !== 'string') throw new UnexpectedReply(`a paid session is not complete: ${JSON.stringify(polled)}`);
}

/** `workers` buyers in a loop for `seconds`: completions per second and the latency of a whole checkout. */
export async function runCheckoutLoad(options: { url: string; seller: CheckoutSeller; workers: number; seconds: number }): Promise<LoadResult> {
  const latencies: number[] = [];
  const failures: Error[] = [];
  let buyers = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.workers }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await checkoutOnce(options.url, options.seller, buyers++);
          latencies.push(performance.now() - t0);
        } catch (error) {
          failures.push(error instanceof Error ? error : new Error(String(error)));
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  if (failures.length > 0) console.error(`\n  ${failures.length} checkouts failed, e.g. ${failures[0]!.message}`);
  const unexpected = failures.filter((f) => f instanceof UnexpectedReply).length;
  return {
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: latencies[latencies.length - 1] ?? NaN,
    non2xx: unexpected,
    socketErrors: failures.length - unexpected,
    raw: '',
  };
}
