import { createHttpApp, type HttpApp } from '../../src/adapters/http/server.ts';
import { jsonLogger } from '../../src/adapters/system/logger.ts';
import type { Deps } from '../../src/ports/deps.ts';
import { FixedClock } from './clock.ts';
import { sqliteDeps, TEST_ISSUER } from './deps.ts';

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as-is (for malformed JSON tests). */
  rawBody?: string;
  key?: string;
  headers?: Record<string, string>;
}

/** The HTTP app over a real in-memory SQLite store, driven through app.handle(new Request(...)). */
export function testApi(options: { deps?: Deps & { clock: FixedClock }; logs?: string[]; ping?: () => Promise<boolean>; readyTimeoutMs?: number } = {}) {
  const deps = options.deps ?? sqliteDeps().deps;
  const logs = options.logs ?? [];
  const app: HttpApp = createHttpApp(deps, {
    log: jsonLogger('debug', (line) => logs.push(line)),
    ping: options.ping ?? (async () => true),
    readyTimeoutMs: options.readyTimeoutMs,
    publicBaseUrl: TEST_ISSUER,
    version: 'test',
    sandboxSms: true,
  });
  async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers['x-api-key'] = options.key;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const response = await app.handle(new Request(`http://localhost/v1${path}`, { method, headers, body }));
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: response.status, headers: response.headers, body: parsed as T };
  }
  return { app, deps, clock: deps.clock, logs, call };
}

export type TestApi = ReturnType<typeof testApi>;

/** A developer with a product, ready to grant licenses. */
export async function seller(api: TestApi, email = `dev${Math.random().toString(36).slice(2)}@example.com`) {
  const signup = await api.call('POST', '/developers/signup', { body: { email, name: 'Seller' } });
  if (signup.status !== 201) throw new Error(`signup failed: ${JSON.stringify(signup.body)}`);
  const { id, apiKey, publishableKey } = signup.body;
  const product = await api.call('POST', '/developers/products', {
    key: apiKey,
    body: { name: 'Pro', price: 1999, currency: 'usd', features: ['pro'] },
  });
  const grant = async (body: Record<string, unknown> = {}) => {
    const r = await api.call('POST', '/developers/licenses', {
      key: apiKey,
      body: { productId: product.body.id, email: 'buyer@example.com', ...body },
    });
    if (r.status !== 201) throw new Error(`grant failed: ${JSON.stringify(r.body)}`);
    return r.body as { license: any; licenseKey: string };
  };
  return { id: id as string, apiKey: apiKey as string, publishableKey: publishableKey as string, product: product.body, grant };
}
