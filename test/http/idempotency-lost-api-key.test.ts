import { describe, expect, test } from 'bun:test';
import { BOTH_STORES, dieAfterWrite, sellerWorld, type OpenApi } from './idempotency-support.ts';

/**
 * A keyed POST /developers/api-keys whose process died after the key was stored (a store that skips
 * saving the answer afterwards). Only the key's digest is stored, so the answer is kept sealed with
 * the key's insert: a retry, however late, shows the same key again and makes no second one.
 */
const HOUR = 3_600_000;

function lostApiKeyRules(name: string, open: OpenApi) {
  describe(`a keyed API key after a crash (${name})`, () => {
    const w = sellerWorld(open);

    const keys = async () => (await w.api.call('GET', '/developers/api-keys', { key: w.s.apiKey })).body.data as { id: string }[];

    test('the key made is shown again an hour later, the same key that works, and no second key is made', async () => {
      const key = `api-key-${crypto.randomUUID()}`;
      const create = () => w.api.call('POST', '/developers/api-keys', { key: w.s.apiKey, headers: { 'Idempotency-Key': key }, body: { scope: 'secret' } });
      const before = (await keys()).length;
      dieAfterWrite(w);
      const first = await create();
      w.api.clock.advance(HOUR);

      const retries = await Promise.all([create(), create()]);

      expect(first.status).toBe(201);
      for (const retry of retries) {
        expect(retry.status).toBe(201);
        expect(retry.headers.get('idempotent-replayed')).toBe('true');
        expect(retry.body).toEqual(first.body);
      }
      expect(await keys()).toHaveLength(before + 1);
      expect((await w.api.call('GET', '/developers/api-keys', { key: first.body.key })).status).toBe(200);
    });
  });
}

for (const [name, open] of BOTH_STORES) lostApiKeyRules(name, open);
