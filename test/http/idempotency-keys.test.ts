import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { openPostgresTestStore, type TestStore } from '../contracts/stores.ts';
import { SANDBOX_CODE } from '../checkout/shop.ts';
import { depsFor } from '../support/deps.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';

const HOUR = 3_600_000;
let n = 0;
const newKey = () => `key-${++n}-${Math.random().toString(36).slice(2)}`;

type World = { api: TestApi; s: Awaited<ReturnType<typeof seller>> };

function createProduct(w: World, key: string | null, body: Record<string, unknown> = { name: 'Team', price: 4999, currency: 'usd' }, apiKey = w.s.apiKey) {
  return w.api.call('POST', '/developers/products', { key: apiKey, body, headers: key === null ? {} : { 'Idempotency-Key': key } });
}

async function productCount(w: World, apiKey = w.s.apiKey) {
  const page = await w.api.call('GET', '/developers/products?limit=100', { key: apiKey });
  return (page.body.data as unknown[]).length;
}

/** The rules every store must keep; one world (one seller, one store) per dialect. */
function idempotencyRules(name: string, open: () => Promise<{ api: TestApi; close?: () => Promise<void> }>) {
  describe(`Idempotency-Key (${name})`, () => {
    let w: World;
    let close: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      const opened = await open();
      close = opened.close;
      w = { api: opened.api, s: await seller(opened.api) };
    });
    afterAll(async () => close?.());

    test('the same key and body twice create one product and answer the first answer again, marked as replayed', async () => {
      const key = newKey();
      const before = await productCount(w);

      const first = await createProduct(w, key);
      const second = await createProduct(w, key);

      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(second.status).toBe(201);
      expect(second.body).toEqual(first.body);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(await productCount(w)).toBe(before + 1);
    });

    test('the same key with another body is 422 idempotency_key_reused, and creates nothing', async () => {
      const key = newKey();
      await createProduct(w, key);
      const before = await productCount(w);

      const other = await createProduct(w, key, { name: 'Other', price: 1, currency: 'usd' });

      expect(other.status).toBe(422);
      expect(other.body.error.code).toBe('idempotency_key_reused');
      expect(await productCount(w)).toBe(before);
    });

    test('the same key on another route is 422 idempotency_key_reused', async () => {
      const key = newKey();
      await createProduct(w, key);

      const grant = await w.api.call('POST', '/developers/licenses', {
        key: w.s.apiKey, headers: { 'Idempotency-Key': key }, body: { productId: w.s.product.id, email: 'b@example.com', notify: false },
      });

      expect(grant.status).toBe(422);
      expect(grant.body.error.code).toBe('idempotency_key_reused');
    });

    test('a license granted twice with one key is one license', async () => {
      const key = newKey();
      const body = { productId: w.s.product.id, email: `idem-${key}@example.com` };
      const grant = () => w.api.call('POST', '/developers/licenses', { key: w.s.apiKey, headers: { 'Idempotency-Key': key }, body });

      const [first, second] = [await grant(), await grant()];
      const listed = await w.api.call('GET', `/developers/licenses?email=${encodeURIComponent(body.email)}`, { key: w.s.apiKey });

      expect(first.status).toBe(201);
      expect(second.body).toEqual(first.body);
      expect(listed.body.data).toHaveLength(1);
    });

    test('a key that is empty, longer than 255 characters or not printable ASCII is 400 invalid_request naming the header', async () => {
      for (const bad of ['', 'x'.repeat(256), 'clé']) {
        const reply = await createProduct(w, bad);
        expect(reply.status).toBe(400);
        expect(reply.body.error.code).toBe('invalid_request');
        expect(reply.body.error.message).toContain('Idempotency-Key');
      }
      expect((await createProduct(w, 'x'.repeat(255))).status).toBe(201);
    });

    test('two sellers using the same key are independent', async () => {
      const other = await seller(w.api);
      const key = newKey();

      const mine = await createProduct(w, key);
      const theirs = await createProduct(w, key, { name: 'Theirs', price: 5, currency: 'usd' }, other.apiKey);

      expect(mine.status).toBe(201);
      expect(theirs.status).toBe(201);
      expect(theirs.headers.get('idempotent-replayed')).toBeNull();
      expect(theirs.body.id).not.toBe(mine.body.id);
    });

    test('a request failing on our side (500) gives the key back: the retry runs', async () => {
      const key = newKey();
      const products = w.api.deps.products;
      const create = products.create;
      products.create = async () => {
        products.create = create;
        throw new Error('store hiccup');
      };

      const failed = await createProduct(w, key);
      const retried = await createProduct(w, key);

      expect(failed.status).toBe(500);
      expect(retried.status).toBe(201);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
    });

    test('a key is kept 24 hours: after that it may name a new request', async () => {
      const key = newKey();
      await createProduct(w, key);
      w.api.clock.advance(24 * HOUR);

      const later = await createProduct(w, key, { name: 'Next day', price: 7, currency: 'usd' });

      expect(later.status).toBe(201);
      expect(later.body.name).toBe('Next day');
    });

    test('a first request that never finished (its process stopped) holds its key 5 minutes, then a retry runs', async () => {
      const key = newKey();
      const now = w.api.clock.now();
      await w.api.deps.idempotencyKeys.claim({ scope: `dev:${w.s.id}`, key, route: 'POST /v1/developers/products', digest: 'lost', createdAt: now, expiresAt: now + 24 * HOUR }, 0);

      const meanwhile = await createProduct(w, key, { name: 'Lost', price: 1, currency: 'usd' });
      w.api.clock.advance(5 * 60_000);
      const retried = await createProduct(w, key, { name: 'Lost', price: 1, currency: 'usd' });

      expect(meanwhile.status).toBe(422);
      expect(retried.status).toBe(201);
    });

    test('without the header nothing changes: each request has its effect', async () => {
      const before = await productCount(w);
      await createProduct(w, null);
      await createProduct(w, null);
      expect(await productCount(w)).toBe(before + 2);
    });
  });
}

idempotencyRules('sqlite', async () => ({ api: testApi() }));

let pg: TestStore | undefined;
idempotencyRules('postgres', async () => {
  pg = await openPostgresTestStore();
  return { api: testApi({ deps: depsFor(pg.store) }), close: () => pg!.dispose() };
});

describe('Idempotency-Key under concurrency (postgres)', () => {
  let store: TestStore;
  let w: World;
  beforeAll(async () => {
    store = await openPostgresTestStore();
    const api = testApi({ deps: depsFor(store.store) });
    w = { api, s: await seller(api) };
  });
  afterAll(async () => store.dispose());

  test('50 concurrent requests with one key make one product; the others replay it or hear 409 with Retry-After', async () => {
    const key = newKey();
    const before = await productCount(w);

    const replies = await Promise.all(Array.from({ length: 50 }, () => createProduct(w, key)));

    expect(await productCount(w)).toBe(before + 1);
    const created = replies.filter((r) => r.status === 201);
    const busy = replies.filter((r) => r.status === 409);
    expect(created.length + busy.length).toBe(50);
    expect(created.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const r of busy) {
      expect(r.body.error.code).toBe('conflict');
      expect(r.headers.get('retry-after')).toBe('1');
    }
    expect((await createProduct(w, key)).headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('Idempotency-Key on the other routes (sqlite)', () => {
  let w: World;
  beforeAll(async () => {
    const api = testApi();
    w = { api, s: await seller(api) };
  });

  test('a refusal a retry would hear again (404) is kept and replayed', async () => {
    const key = newKey();
    const grant = () => w.api.call('POST', '/developers/licenses', { key: w.s.apiKey, headers: { 'Idempotency-Key': key }, body: { productId: 'prod_missing', email: 'b@example.com' } });

    const first = await grant();
    const again = await grant();

    expect(first.status).toBe(404);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe(first.body.error.code);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  test('checkout init with a publishable key and one key starts one session', async () => {
    const start = await w.api.call('POST', '/connect/start', { key: w.s.apiKey });
    const state = new URL(start.body.url).searchParams.get('state')!;
    await w.api.call('GET', `/connect/callback?${new URLSearchParams({ code: SANDBOX_CODE, state })}`);
    const key = newKey();
    const init = () => w.api.call('POST', '/checkout/init', { key: w.s.publishableKey, headers: { 'Idempotency-Key': key }, body: { productId: w.s.product.id } });

    const first = await init();
    const again = await init();

    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  test('the OpenAPI document lists the header, once, on each route that honours it', async () => {
    const doc = (await w.api.call('GET', '/openapi.json')).body;
    const honouring = Object.entries<Record<string, { parameters?: { $ref?: string }[] }>>(doc.paths)
      .flatMap(([path, methods]) => Object.entries(methods).filter(([, op]) => op.parameters?.some((p) => p.$ref === '#/components/parameters/IdempotencyKey')).map(([m]) => `${m.toUpperCase()} ${path}`))
      .sort();

    expect(honouring).toEqual([
      'POST /v1/checkout/init', 'POST /v1/developers/api-keys', 'POST /v1/developers/licenses', 'POST /v1/developers/orders/{id}/refund',
      'POST /v1/developers/products', 'POST /v1/developers/webhook-endpoints', 'POST /v1/purchase/confirm', 'POST /v1/trials', 'POST /v1/trials/confirm',
    ]);
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header' });
  });
});
