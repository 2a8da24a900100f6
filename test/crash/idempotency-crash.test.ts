import { describe, expect, test } from 'bun:test';
import { startServer, type RunningServer } from '../support/server-process.ts';
import { SANDBOX_CODE_PREFIX } from '../../src/adapters/sandbox/sandbox-processor.ts';
import { randomHex } from './client.ts';
import { postgresCrashStore, sqliteCrashStore, type CrashStore } from './stores.ts';

/**
 * Keyed creates (grants, products and checkout inits, each key with its own e-mail, name or success
 * URL; API keys, counted by the id their answer names) fired at the real server
 * at once; the process is killed with SIGKILL while they are in flight and restarted on the same
 * store; then every key is sent again. Whatever the kill cut off, each key ends with exactly one
 * object, and its retry answers 2xx with that object (the answer the first request gave, if it gave one).
 */

const ENV = { LOG_LEVEL: 'warn' };
const IN_FLIGHT = 12;

interface Keyed {
  key: string;
  path: '/developers/licenses' | '/developers/products' | '/checkout/init' | '/developers/api-keys';
  body: Record<string, unknown>;
  sent?: boolean;
  /** What the first request answered, if the kill let it answer. */
  first?: { status: number; body: any };
}

async function send(base: string, apiKey: string, item: Keyed) {
  const response = await fetch(`${base}/v1${item.path}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'idempotency-key': item.key },
    body: JSON.stringify(item.body),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: response.status, replayed: response.headers.get('idempotent-replayed'), body: (await response.json()) as any };
}

/** A retry as a client does it: again after Retry-After while the key is held (a claim the kill left, until it goes stale). */
async function retry(base: string, apiKey: string, item: Keyed) {
  for (let attempt = 0; ; attempt++) {
    const reply = await send(base, apiKey, item);
    if (reply.status !== 409 || attempt >= 40) return reply;
    await Bun.sleep(1_000);
  }
}

/** Grants, products and checkouts in turn, each key naming its object (an e-mail, a name, a success URL) so the store can be counted per key. */
function keyedItems(count: number, productId: string, run: string): Keyed[] {
  const kinds = [
    (i: number): Keyed => ({ key: `g-${run}-${i}`, path: '/developers/licenses', body: { productId, email: `idem-${run}-${i}@example.com` } }),
    (i: number): Keyed => ({ key: `p-${run}-${i}`, path: '/developers/products', body: { name: `idem-${run}-${i}`, price: 100 + i, currency: 'usd' } }),
    (i: number): Keyed => ({ key: `c-${run}-${i}`, path: '/checkout/init', body: { productId, successUrl: `https://shop.example.com/idem-${run}-${i}` } }),
    (i: number): Keyed => ({ key: `k-${run}-${i}`, path: '/developers/api-keys', body: { scope: 'secret' } }),
  ];
  return Array.from({ length: count }, (_, i) => kinds[i % kinds.length]!(i));
}

/** Connects the seller's sandbox account, as checkouts need. */
async function connect(base: string, apiKey: string) {
  const start = (await (await fetch(`${base}/v1/connect/start`, { method: 'POST', headers: { 'x-api-key': apiKey } })).json()) as { url: string };
  const state = new URL(start.url).searchParams.get('state')!;
  const query = new URLSearchParams({ code: `${SANDBOX_CODE_PREFIX}${randomHex(12)}`, state });
  const callback = await fetch(`${base}/v1/connect/callback?${query}`);
  if (callback.status !== 200) throw new Error(`connect: ${callback.status}`);
}

/** Sends the items, IN_FLIGHT at a time, until the kill cuts them off; notes each answer it got. */
async function fire(base: string, apiKey: string, items: Keyed[]) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      item.sent = true;
      try {
        item.first = await send(base, apiKey, item);
      } catch {
        return; // cut off by the kill
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

async function crashAndRetry(store: CrashStore) {
  let server: RunningServer | undefined = await startServer({ ...store.env, ...ENV });
  try {
    const signup = await (await fetch(`${server.url}/v1/developers/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: `idem-${randomHex(6)}@example.com`, name: 'Idem' }) })).json() as any;
    const apiKey = signup.apiKey as string;
    const product = await send(server.url, apiKey, { key: 'setup', path: '/developers/products', body: { name: 'Base', price: 1500, currency: 'usd' } });
    await connect(server.url, apiKey);
    const run = randomHex(4);
    const items = keyedItems(3_000, product.body.id, run);

    const firedAt = Date.now();
    const firing = fire(server.url, apiKey, items);
    while (items.filter((i) => i.first).length < 60) await Bun.sleep(10);
    await Bun.sleep(Math.floor(Math.random() * 300));
    server.kill('SIGKILL');
    await server.exited;
    await firing;
    const sent = items.filter((i) => i.sent);
    const cutOff = sent.filter((i) => !i.first).length;

    server = await startServer({ ...store.env, ...ENV });
    const base = server.url;
    const retries: { item: Keyed; reply: Awaited<ReturnType<typeof send>> }[] = [];
    for (let i = 0; i < sent.length; i += IN_FLIGHT) {
      const batch = sent.slice(i, i + IN_FLIGHT);
      retries.push(...(await Promise.all(batch.map(async (item) => ({ item, reply: await retry(base, apiKey, item) })))));
    }
    await server.stop();
    server = undefined;
    const licenses = await store.rows(`SELECT c.email AS name, COUNT(*) AS n FROM licenses l JOIN customers c ON c.id = l.customer_id WHERE c.email LIKE 'idem-${run}-%' GROUP BY c.email`);
    const products = await store.rows(`SELECT name, COUNT(*) AS n FROM products WHERE name LIKE 'idem-${run}-%' GROUP BY name`);
    // A session whose process died before the processor's page existed was never answered nor linked: not counted.
    const sessions = await store.rows(`SELECT success_url AS name, COUNT(*) AS n FROM checkout_sessions WHERE success_url LIKE 'https://shop.example.com/idem-${run}-%' AND checkout_url IS NOT NULL GROUP BY success_url`);
    // An API key has no name of its own: the retry's answer names it; every secret key made since the firing began is one of ours.
    const apiKeys = await store.rows(`SELECT id AS name, 1 AS n FROM api_keys WHERE developer_id = '${signup.id}' AND scope = 'secret' AND created_at >= ${firedAt}`);
    const counts = new Map([...licenses, ...products, ...sessions, ...apiKeys].map((r) => [String(r.name), Number(r.n)]));
    const keysMade = apiKeys.length - sent.filter((i) => i.path === '/developers/api-keys').length;
    return { retries, counts, keysMade, answered: items.filter((i) => i.first).length, cutOff };
  } finally {
    if (server) {
      server.kill('SIGKILL');
      await server.exited;
    }
  }
}

const nameOf = (item: Keyed, reply: { body: any }) => String(item.body.email ?? item.body.name ?? item.body.successUrl ?? reply.body?.id);
/** The object an answer names: a license's id and key, a session's id and URL, or a product's id. */
const objectOf = (body: any) => (body?.license ? `${body.license.id} ${body.licenseKey}` : body?.sessionId ? `${body.sessionId} ${body.checkoutUrl}` : body?.key ? `${body.id} ${body.key}` : body?.id);

describe.each([
  ['SQLite', sqliteCrashStore],
  ['PostgreSQL', postgresCrashStore],
] as const)('Idempotency-Key through kill -9 and a restart, on %s', (_, openStore) => {
  test('every key retried after the crash answers 2xx with its one object: the first answer when there was one', async () => {
    const store = openStore();
    try {
      const { retries, counts, keysMade, answered, cutOff } = await crashAndRetry(store);
      const wrong = retries.flatMap(({ item, reply }) => {
        const problems: string[] = [];
        if (reply.status !== 201) problems.push(`${item.key}: retry ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`);
        if (item.first?.status === 201 && objectOf(reply.body) !== objectOf(item.first.body)) problems.push(`${item.key}: retry answered another object`);
        if ((counts.get(nameOf(item, reply)) ?? 0) !== 1) problems.push(`${item.key}: ${counts.get(nameOf(item, reply)) ?? 0} objects`);
        return problems;
      });
      expect(answered).toBeGreaterThan(0);
      expect(cutOff).toBeGreaterThan(0);
      expect(wrong).toEqual([]);
      expect(keysMade).toBe(0); // one secret API key per keyed request, none more
      const rebuilt = retries.filter(({ item, reply }) => !item.first && reply.replayed === 'true').length;
      console.info(`${store.name}: ${answered} answered before the kill, ${cutOff} cut off (${rebuilt} of them had committed and were replayed)`);
    } finally {
      await store.dispose();
    }
  }, 180_000);
});
