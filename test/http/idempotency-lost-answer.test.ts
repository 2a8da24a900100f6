import { describe, expect, test } from 'bun:test';
import { BOTH_STORES, dieAfterWrite, sellerWorld, type OpenApi, type World } from './idempotency-support.ts';

/**
 * A request killed after its write committed but before its answer was kept: simulated by a store
 * whose complete() and release() do nothing once (the process died before it could call them).
 */
const HOUR = 3_600_000;
let n = 0;
const newKey = () => `lost-${++n}-${Math.random().toString(36).slice(2)}`;

async function licensesOf(w: World, email: string) {
  const page = await w.api.call('GET', `/developers/licenses?email=${encodeURIComponent(email)}&limit=100`, { key: w.s.apiKey });
  return page.body.data as { id: string }[];
}

function lostAnswerRules(name: string, open: OpenApi) {
  describe(`Idempotency-Key after a crash (${name})`, () => {
    const w = sellerWorld(open);

    const grant = (key: string, email: string) =>
      w.api.call('POST', '/developers/licenses', { key: w.s.apiKey, headers: { 'Idempotency-Key': key }, body: { productId: w.s.product.id, email } });

    test('a grant that died after writing its license is replayed at once, the same license and key, marked as replayed', async () => {
      const [key, email] = [newKey(), `died-${n}@example.com`];
      dieAfterWrite(w);
      const first = await grant(key, email);

      const retry = await grant(key, email);

      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.body.license.id).toBe(first.body.license.id);
      expect(retry.body.licenseKey).toBe(first.body.licenseKey);
      expect(await licensesOf(w, email)).toHaveLength(1);
    });

    test('a retry long after such a crash still grants nothing twice, and the rebuilt answer is kept', async () => {
      const [key, email] = [newKey(), `later-${n}@example.com`];
      dieAfterWrite(w);
      const first = await grant(key, email);
      w.api.clock.advance(HOUR);

      const retries = await Promise.all([grant(key, email), grant(key, email)]);
      const kept = await grant(key, email);

      for (const retry of [...retries, kept]) {
        expect(retry.status).toBe(201);
        expect(retry.headers.get('idempotent-replayed')).toBe('true');
        expect(retry.body.licenseKey).toBe(first.body.licenseKey);
      }
      expect(await licensesOf(w, email)).toHaveLength(1);
    });

    test('a product whose request died after writing it is replayed, not created again', async () => {
      const key = newKey();
      const body = { name: `Died ${n}`, price: 100, currency: 'usd' };
      const create = () => w.api.call('POST', '/developers/products', { key: w.s.apiKey, headers: { 'Idempotency-Key': key }, body });
      dieAfterWrite(w);
      const first = await create();
      w.api.clock.advance(HOUR);

      const retry = await create();

      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.body).toEqual(first.body);
      const all = await w.api.call('GET', '/developers/products?limit=100', { key: w.s.apiKey });
      expect(all.body.data.filter((p: { name: string }) => p.name === body.name)).toHaveLength(1);
    });

    test('a webhook endpoint whose request died after writing it is replayed with the same secret', async () => {
      const key = newKey();
      const body = { url: `https://hooks.example.com/${key}` };
      const create = () => w.api.call('POST', '/developers/webhook-endpoints', { key: w.s.apiKey, headers: { 'Idempotency-Key': key }, body });
      dieAfterWrite(w);
      const first = await create();
      w.api.clock.advance(HOUR);

      const retry = await create();

      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.body).toEqual(first.body);
      const all = await w.api.call('GET', '/developers/webhook-endpoints?limit=100', { key: w.s.apiKey });
      expect(all.body.data.filter((e: { url: string }) => e.url === body.url)).toHaveLength(1);
    });

    test('a key whose process died with nothing written is free again 10 seconds later, not 5 minutes', async () => {
      const [key, email] = [newKey(), `nothing-${n}@example.com`];
      const licenses = w.api.deps.licenses;
      const create = licenses.create;
      // The process dies before its write: nothing committed, and nobody left to give the key back.
      licenses.create = async () => {
        licenses.create = create;
        throw new Error('killed');
      };
      const keys = w.api.deps.idempotencyKeys;
      const release = keys.release;
      keys.release = async () => void (keys.release = release);
      await grant(key, email);

      const atOnce = await grant(key, email);
      w.api.clock.advance(10_000);
      const tenSecondsOn = await grant(key, email);

      expect(atOnce.status).toBe(409);
      expect(tenSecondsOn.status).toBe(201);
      expect(tenSecondsOn.headers.get('idempotent-replayed')).toBeNull();
      expect(await licensesOf(w, email)).toHaveLength(1);
    });

    test('a live request that keeps beating holds its key past 10 seconds', async () => {
      const key = newKey();
      const now = w.api.clock.now();
      const claim = { scope: `dev:${w.s.id}`, key, route: 'POST /v1/developers/licenses', digest: 'x', createdAt: now, expiresAt: now + 24 * HOUR };
      await w.api.deps.idempotencyKeys.claim(claim, 0);
      w.api.clock.advance(8_000);
      await w.api.deps.idempotencyKeys.heartbeat(claim.scope, key, w.api.clock.now());
      w.api.clock.advance(8_000);

      const retry = await w.api.deps.idempotencyKeys.claim({ ...claim, createdAt: w.api.clock.now() }, w.api.clock.now() - 10_000);

      expect(retry?.status).toBe('in_progress');
    });

    test('racing retries of a lost key: exactly one wins it', async () => {
      const key = newKey();
      const now = w.api.clock.now();
      const claim = { scope: `dev:${w.s.id}`, key, route: 'POST /v1/developers/licenses', digest: 'x', createdAt: now, expiresAt: now + 24 * HOUR };
      await w.api.deps.idempotencyKeys.claim(claim, 0);
      w.api.clock.advance(11_000);
      const at = w.api.clock.now();

      const outcomes = await Promise.all(Array.from({ length: 8 }, () => w.api.deps.idempotencyKeys.claim({ ...claim, createdAt: at }, at - 10_000)));

      expect(outcomes.filter((o) => o === null)).toHaveLength(1);
    });
  });
}

for (const [name, open] of BOTH_STORES) lostAnswerRules(name, open);
