import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { openPostgresTestStore, type TestStore } from '../contracts/stores.ts';
import { SANDBOX_CODE, shopOn } from '../checkout/shop.ts';
import { depsFor } from '../support/deps.ts';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.ts';
import { seller, testApi, type Reply, type TestApi } from '../support/http.ts';
import { BOTH_STORES, sellerWorld, type OpenApi, type World } from './idempotency-support.ts';
import { openPurchaseShop, type PurchaseShop } from '../terminal/purchase-modes.ts';
import { wrongCode } from '../terminal/terminal.ts';
import { mailedCode, trialShop } from '../trials/trial-shop.ts';

const HOUR = 3_600_000;
let n = 0;
const newKey = () => `key-${++n}-${Math.random().toString(36).slice(2)}`;


function createProduct(w: World, key: string | null, body: Record<string, unknown> = { name: 'Team', price: 4999, currency: 'usd' }, apiKey = w.s.apiKey) {
  return w.api.call('POST', '/developers/products', { key: apiKey, body, headers: key === null ? {} : { 'Idempotency-Key': key } });
}

async function productCount(w: World, apiKey = w.s.apiKey) {
  const page = await w.api.call('GET', '/developers/products?limit=100', { key: apiKey });
  return (page.body.data as unknown[]).length;
}

/** Concurrent requests with one key: one ran (`status`), every other replayed it or heard 409 with Retry-After. */
function expectOneRan(replies: Reply[], status: number) {
  const answered = replies.filter((r) => r.status === status);
  const busy = replies.filter((r) => r.status === 409);
  expect(answered.length + busy.length).toBe(replies.length);
  expect(answered.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
  expect(new Set(answered.map((r) => JSON.stringify(r.body))).size).toBe(1);
  for (const r of busy) {
    expect(r.body.error.code).toBe('conflict');
    expect(r.headers.get('retry-after')).toBe('1');
  }
}

/** The rules every store must keep; one world (one seller, one store) per dialect. */
function idempotencyRules(name: string, open: OpenApi) {
  describe(`Idempotency-Key (${name})`, () => {
    const w = sellerWorld(open);

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

    test('a first request that never finished (its process stopped) holds its key until 10 seconds without a heartbeat, then a retry runs', async () => {
      const key = newKey();
      const now = w.api.clock.now();
      await w.api.deps.idempotencyKeys.claim({ scope: `dev:${w.s.id}`, key, route: 'POST /v1/developers/products', digest: 'lost', createdAt: now, expiresAt: now + 24 * HOUR }, 0);

      const meanwhile = await createProduct(w, key, { name: 'Lost', price: 1, currency: 'usd' });
      w.api.clock.advance(10_000);
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

for (const [name, open] of BOTH_STORES) idempotencyRules(name, open);

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
    expectOneRan(replies, 201);
    expect((await createProduct(w, key)).headers.get('idempotent-replayed')).toBe('true');
  });

  describe('on a charging route, with the Stripe fake', () => {
    let fake: FakeStripe;
    let shop: Awaited<ReturnType<typeof shopOn>>;
    beforeAll(async () => {
      fake = await startFakeStripe();
      shop = await shopOn(depsFor(store.store), { fake });
      expect((await shop.connect()).status).toBe(200);
    });
    afterAll(() => fake.stop());

    test('50 concurrent partial refunds of one order with one key: Stripe refunds once; the others replay it or hear 409 with Retry-After', async () => {
      const { order, payment } = await shop.stripeSale();
      const key = newKey();
      const refund = () => shop.api.call('POST', `/developers/orders/${order.id}/refund`, { key: shop.dev.apiKey, headers: { 'Idempotency-Key': key }, body: { amount: 500 } });

      const replies = await Promise.all(Array.from({ length: 50 }, refund));

      expect(fake.refunds.filter((r) => r.paymentIntentId === payment.paymentIntentId).map((r) => r.amount)).toEqual([500]);
      expectOneRan(replies, 200);
      expect(replies.find((r) => r.status === 200)!.body).toMatchObject({ id: order.id, amountRefunded: 500 });
      expect((await shop.api.deps.orders.findById(order.id))!.amountRefunded).toBe(500);
      expect((await refund()).headers.get('idempotent-replayed')).toBe('true');
    });
  });
});

/** One request of a route, made fresh for each test: the request and the count of its effect. */
interface Subject {
  body: Record<string, unknown>;
  /** Another body for the same request. */
  other: Record<string, unknown>;
  send(key: string, body: Record<string, unknown>): Promise<Reply>;
  effects(): Promise<number>;
}

/** A connected seller with Stripe (a buyer signed in with a saved card) and a seller whose product offers trials. */
interface RouteWorld {
  fake: FakeStripe;
  shop: PurchaseShop;
  token: string;
  trials: Awaited<ReturnType<typeof trialShop>>;
}

const withKey = (key: string) => ({ 'Idempotency-Key': key });

async function countOf(api: TestApi, path: string, key?: string) {
  return ((await api.call('GET', path, { key })).body.data as unknown[]).length;
}

const trialLicenses = ({ trials }: RouteWorld, email: string) => countOf(trials.api, `/developers/licenses?email=${encodeURIComponent(email)}`, trials.s.apiKey);

/** Trial fields no earlier trial used (one trial per address and per machine). */
const freshTrial = () => ({ email: `${newKey()}@example.com`, machineFingerprint: `machine-${newKey()}` });

/** POST /trials with this API key; its effect, counted for the address asked: a trial license, or a mailed code. */
function trialRequest(w: RouteWorld, key: string, effects: (email: string) => Promise<number>): Subject {
  const body = freshTrial();
  const { email } = body;
  return {
    body,
    other: { ...body, machineFingerprint: 'machine-other' },
    send: (idem, fields) => w.trials.request(fields, key, withKey(idem)),
    effects: () => effects(email),
  };
}

const ROUTES: { route: string; status: number; prepare(w: RouteWorld): Promise<Subject> }[] = [
  {
    route: 'POST /developers/webhook-endpoints',
    status: 201,
    prepare: async ({ shop: { t } }) => ({
      body: { url: `https://hooks.example.com/${newKey()}` },
      other: { url: 'https://hooks.example.com/other' },
      send: (key, body) => t.api.call('POST', '/developers/webhook-endpoints', { key: t.dev.apiKey, headers: withKey(key), body }),
      effects: () => countOf(t.api, '/developers/webhook-endpoints?limit=100', t.dev.apiKey),
    }),
  },
  {
    route: 'POST /developers/api-keys',
    status: 201,
    prepare: async ({ shop: { t } }) => ({
      body: { scope: 'secret' },
      other: { scope: 'publishable' },
      send: (key, body) => t.api.call('POST', '/developers/api-keys', { key: t.dev.apiKey, headers: withKey(key), body }),
      effects: () => countOf(t.api, '/developers/api-keys', t.dev.apiKey),
    }),
  },
  {
    route: 'POST /developers/orders/:id/refund',
    status: 200,
    prepare: async ({ shop: { t }, fake }) => {
      const { order, payment } = await t.stripeSale();
      return {
        body: { amount: 500 },
        other: { amount: 600 },
        send: (key, body) => t.api.call('POST', `/developers/orders/${order.id}/refund`, { key: t.dev.apiKey, headers: withKey(key), body }),
        effects: async () => fake.refunds.filter((r) => r.paymentIntentId === payment.paymentIntentId).length,
      };
    },
  },
  {
    route: 'POST /purchase/confirm',
    status: 200,
    prepare: async ({ shop, token }) => {
      const product = await shop.t.anotherProduct(`Plus ${newKey()}`);
      const p = await shop.t.purchase(token, product.id);
      const body = { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code, cardId: p.cards[0]!.id };
      return {
        body,
        other: { ...body, otp: wrongCode(p.code) },
        send: (key, sent) => shop.t.api.call('POST', '/purchase/confirm', { headers: shop.t.bearer(token, withKey(key)), body: sent }),
        effects: async () => shop.chargesOf(p.purchaseId),
      };
    },
  },
  { route: 'POST /trials (secret key: the trial starts)', status: 201, prepare: async (w) => trialRequest(w, w.trials.s.apiKey, (email) => trialLicenses(w, email)) },
  {
    route: 'POST /trials (publishable key: a code is mailed)',
    status: 202,
    prepare: async (w) => trialRequest(w, w.trials.s.publishableKey, (email) => countOf(w.trials.api, `/sandbox/mail?to=${encodeURIComponent(email)}`)),
  },
  {
    route: 'POST /trials/confirm',
    status: 201,
    prepare: async (w) => {
      const fields = freshTrial();
      const { email } = fields;
      const asked = await w.trials.request(fields);
      const body = { trialRequestId: asked.body.trialRequestId, otp: await mailedCode(w.trials.api, email) };
      return {
        body,
        other: { ...body, otp: wrongCode(body.otp) },
        send: (key, sent) => w.trials.confirm(String(sent.trialRequestId), String(sent.otp), w.trials.s.publishableKey, withKey(key)),
        effects: () => trialLicenses(w, email),
      };
    },
  },
];

describe('Idempotency-Key on each route that creates or charges, end to end (sqlite, the Stripe fake)', () => {
  let w: RouteWorld;
  beforeAll(async () => {
    const fake = await startFakeStripe();
    const shop = await openPurchaseShop('stripe', fake);
    await shop.saveCard('pays');
    w = { fake, shop, token: await shop.t.login(), trials: await trialShop(shop.t.api) };
  });
  afterAll(() => w.fake.stop());

  test('a kept answer shows no secret in the store (a new API key, a webhook secret): it is sealed, and replayed whole', async () => {
    const { t } = w.shop;
    const keptBody = async (key: string) => {
      const now = t.clock.now();
      const record = await t.api.deps.idempotencyKeys.claim({ scope: `dev:${t.dev.id}`, key, route: 'lookup', digest: 'lookup', createdAt: now, expiresAt: now }, 0);
      return record!.responseBody!;
    };
    const subjectOf = (route: string) => ROUTES.find((r) => r.route === route)!.prepare(w);
    const endpoints = await subjectOf('POST /developers/webhook-endpoints');
    const apiKeys = await subjectOf('POST /developers/api-keys');
    const [k1, k2] = [newKey(), newKey()];

    const endpoint = await endpoints.send(k1, endpoints.body);
    const apiKey = await apiKeys.send(k2, apiKeys.body);

    expect(endpoint.body.secret).toStartWith('whsec_');
    expect(apiKey.body.key).toStartWith('sk_');
    expect(await keptBody(k1)).not.toContain(endpoint.body.secret);
    expect(await keptBody(k2)).not.toContain(apiKey.body.key);
    expect((await endpoints.send(k1, endpoints.body)).body.secret).toBe(endpoint.body.secret);
    expect((await apiKeys.send(k2, apiKeys.body)).body.key).toBe(apiKey.body.key);
  });

  describe.each(ROUTES)('$route', ({ status, prepare }) => {
    test('the same key and body twice have one effect; the second answer is the first, marked as replayed', async () => {
      const subject = await prepare(w);
      const key = newKey();
      const before = await subject.effects();

      const first = await subject.send(key, subject.body);
      const second = await subject.send(key, subject.body);

      expect(first.status).toBe(status);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(second.status).toBe(status);
      expect(second.body).toEqual(first.body);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(await subject.effects()).toBe(before + 1);
    });

    test('the same key with another body is 422 idempotency_key_reused, with no effect', async () => {
      const subject = await prepare(w);
      const key = newKey();
      expect((await subject.send(key, subject.body)).status).toBe(status);
      const before = await subject.effects();

      const other = await subject.send(key, subject.other);

      expect(other.status).toBe(422);
      expect(other.body.error.code).toBe('idempotency_key_reused');
      expect(await subject.effects()).toBe(before);
    });
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
