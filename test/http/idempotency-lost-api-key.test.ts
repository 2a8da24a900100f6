import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { openPostgresTestStore, type TestStore } from '../contracts/stores.ts';
import { depsFor } from '../support/deps.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { dieAfterWrite, type World } from './idempotency-support.ts';

/**
 * A keyed POST /developers/api-keys whose process died after the key was stored (a store that skips
 * saving the answer afterwards). Only the key's digest is stored, so the answer is kept sealed with
 * the key's insert: a retry, however late, shows the same key again and makes no second one.
 */
const HOUR = 3_600_000;

function lostApiKeyRules(name: string, open: () => Promise<{ api: TestApi; close?: () => Promise<void> }>) {
  describe(`a keyed API key after a crash (${name})`, () => {
    let w: World;
    let close: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      const opened = await open();
      close = opened.close;
      w = { api: opened.api, s: await seller(opened.api) };
    });
    afterAll(async () => close?.());

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

lostApiKeyRules('sqlite', async () => ({ api: testApi() }));

let pg: TestStore | undefined;
lostApiKeyRules('postgres', async () => {
  pg = await openPostgresTestStore();
  return { api: testApi({ deps: depsFor(pg.store) }), close: () => pg!.dispose() };
});
