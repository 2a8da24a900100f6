import { beforeAll } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { atProcessEnd } from '../support/process-end.ts';
import { freePort, spawnService, untilHealthy, type Spawned } from '../support/server-process.ts';
import { SLOW } from './browser.ts';

export type Call = <T = any>(method: string, path: string, options?: { body?: unknown; key?: string }) => Promise<{ status: number; body: T }>;

const shared = new Map<string, Promise<{ url: string; call: Call }>>();

export interface ServiceOptions {
  hostname?: '127.0.0.1' | 'localhost';
  env?: Record<string, string>;
}

/**
 * The real server process in sandbox mode on a temp SQLite file, started by the first test file
 * that asks and stopped once the last one has run: a start costs seconds on two busy cores, and
 * every test makes a seller of its own. One per set of options: PUBLIC_BASE_URL is the loopback
 * address it listens on, so every URL it hands out (checkout, authorize, success) is one the browser
 * may open: `http://127.0.0.1:<port>`, or with `hostname: 'localhost'` `http://localhost:<port>` (a
 * domain, as a WebAuthn rpID must be); `env` adds settings.
 */
function sharedSandboxService(options: ServiceOptions): Promise<{ url: string; call: Call }> {
  const key = JSON.stringify([options.hostname ?? '127.0.0.1', options.env ?? {}]);
  let service = shared.get(key);
  if (!service) {
    const dir = mkdtempSync(join(tmpdir(), 'licensing-browser-'));
    let spawned: Spawned | undefined;
    const started = (async () => {
      const port = await freePort();
      const url = `http://${options.hostname ?? '127.0.0.1'}:${port}`;
      const env = { PORT: String(port), PUBLIC_BASE_URL: url, DATABASE_URL: `sqlite:${join(dir, 'licensing.db')}`, LOG_LEVEL: 'warn', ...options.env };
      // Only PATH and HOME are inherited: no STRIPE_* or TWILIO_* variable can switch sandbox mode off.
      spawned = { ...(await spawnService(env, { inheritEnv: false })), url };
      await untilHealthy(spawned, SLOW / 2);
      // The test itself calls the address the server listens on.
      return { url, call: api(`http://127.0.0.1:${port}`) };
    })();
    service = started;
    shared.set(key, started);
    started.catch(() => {
      if (shared.get(key) === started) shared.delete(key); // the next file tries again
    });
    atProcessEnd(async () => {
      spawned?.kill();
      await spawned?.exited;
      rmSync(dir, { recursive: true, force: true });
    });
  }
  return service;
}

/** The process's sandbox service for these options, for the test file that calls it: `url` and `call` are set before its tests run. */
export function useSandboxService(options: ServiceOptions = {}) {
  const state = { url: '', call: (async () => ({ status: 0, body: null })) as Call };
  beforeAll(async () => {
    Object.assign(state, await sharedSandboxService(options));
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
  id: string;
  email: string;
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
  return { id: signup.body.id, email, apiKey: signup.body.apiKey, publishableKey: signup.body.publishableKey, productId: product.body.id };
}

/** Checkout init with the publishable key, as an application would. */
export async function initCheckout(call: Call, seller: Seller, body: Record<string, unknown> = {}) {
  const init = await call('POST', '/checkout/init', { key: seller.publishableKey, body: { productId: seller.productId, ...body } });
  if (init.status !== 201) throw new Error(`checkout init: ${JSON.stringify(init.body)}`);
  return init.body as { sessionId: string; checkoutUrl: string };
}
