import { beforeAll } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { atProcessEnd } from '../support/process-end.ts';
import { freePort, spawnService, untilHealthy, type Spawned } from '../support/server-process.ts';
import { SLOW } from './browser.ts';

export type Call = <T = any>(method: string, path: string, options?: { body?: unknown; key?: string }) => Promise<{ status: number; body: T }>;

let shared: Promise<{ url: string; call: Call }> | undefined;

/**
 * The real server process in sandbox mode on a temp SQLite file, started by the first test file
 * that asks and stopped once the last one has run: a start costs seconds on two busy cores, and
 * every test makes a seller of its own. PUBLIC_BASE_URL is the loopback address it listens on, so
 * every URL it hands out (checkout, authorize, success) is one the browser may open.
 */
function sharedSandboxService(): Promise<{ url: string; call: Call }> {
  if (!shared) {
    const dir = mkdtempSync(join(tmpdir(), 'licensing-browser-'));
    let service: Spawned | undefined;
    const started = (async () => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const env = { PORT: String(port), PUBLIC_BASE_URL: url, DATABASE_URL: `sqlite:${join(dir, 'licensing.db')}`, LOG_LEVEL: 'warn' };
      // Only PATH and HOME are inherited: no STRIPE_* or TWILIO_* variable can switch sandbox mode off.
      service = { ...(await spawnService(env, { inheritEnv: false })), url };
      await untilHealthy(service, SLOW / 2);
      return { url, call: api(url) };
    })();
    shared = started;
    started.catch(() => {
      if (shared === started) shared = undefined; // the next file tries again
    });
    atProcessEnd(async () => {
      service?.kill();
      await service?.exited;
      rmSync(dir, { recursive: true, force: true });
    });
  }
  return shared;
}

/** The process's sandbox service, for the test file that calls it: `url` and `call` are set before its tests run. */
export function useSandboxService() {
  const state = { url: '', call: (async () => ({ status: 0, body: null })) as Call };
  beforeAll(async () => {
    Object.assign(state, await sharedSandboxService());
  }, SLOW);
  return state;
}

function api(url: string): Call {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = {};
    if (options.key) headers['x-api-key'] = options.key;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${url}/v1${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text) };
    } catch {
      return { status: response.status, body: text as never };
    }
  };
}

export interface Seller {
  apiKey: string;
  publishableKey: string;
  productId: string;
}

/** A developer selling "Pro Plan" for $19.99, set up over the HTTP API. */
export async function newSeller(call: Call): Promise<Seller> {
  const email = `seller-${crypto.randomUUID()}@example.com`;
  const signup = await call('POST', '/developers/signup', { body: { email, name: 'Seller' } });
  if (signup.status !== 201) throw new Error(`signup: ${JSON.stringify(signup.body)}`);
  const product = await call('POST', '/developers/products', {
    key: signup.body.apiKey,
    body: { name: 'Pro Plan', price: 1999, currency: 'usd', features: ['pro'] },
  });
  if (product.status !== 201) throw new Error(`product: ${JSON.stringify(product.body)}`);
  return { apiKey: signup.body.apiKey, publishableKey: signup.body.publishableKey, productId: product.body.id };
}

/** Checkout init with the publishable key, as an application would. */
export async function initCheckout(call: Call, seller: Seller, body: Record<string, unknown> = {}) {
  const init = await call('POST', '/checkout/init', { key: seller.publishableKey, body: { productId: seller.productId, ...body } });
  if (init.status !== 201) throw new Error(`checkout init: ${JSON.stringify(init.body)}`);
  return init.body as { sessionId: string; checkoutUrl: string };
}
