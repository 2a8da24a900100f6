import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Deps } from '../../src/ports/deps.ts';
import { SANDBOX_CODE } from '../checkout/shop.ts';
import { openPostgresTestStore } from '../contracts/stores.ts';
import type { FixedClock } from '../support/clock.ts';
import { depsFor, sqliteDeps, testSettings } from '../support/deps.ts';
import { seller, testApi } from '../support/http.ts';
import { dieAfterWrite, type World } from './idempotency-support.ts';

/** A publishable key is shared by all of a seller's buyers: its Idempotency-Keys are per client address too. */
const HOUR = 3_600_000;
const newKey = () => `pk-${Math.random().toString(36).slice(2)}`;

function publishableRules(name: string, open: () => Promise<{ deps: Deps & { clock: FixedClock }; close?: () => Promise<void> }>) {
  describe(`Idempotency-Key under a publishable key, and checkout init (${name})`, () => {
    let w: World;
    let close: (() => Promise<void>) | undefined;
    afterAll(async () => close?.());
    beforeAll(async () => {
      const opened = await open();
      close = opened.close;
      const api = testApi({ deps: { ...opened.deps, settings: testSettings({ trustedProxyHeader: 'x-forwarded-for' }) } });
      w = { api, s: await seller(api) };
      const start = await api.call('POST', '/connect/start', { key: w.s.apiKey });
      const state = new URL(start.body.url).searchParams.get('state')!;
      await api.call('GET', `/connect/callback?${new URLSearchParams({ code: SANDBOX_CODE, state })}`);
    });

    const init = (key: string, address: string) =>
      w.api.call('POST', '/checkout/init', { key: w.s.publishableKey, headers: { 'Idempotency-Key': key, 'x-forwarded-for': address }, body: { productId: w.s.product.id } });

    test('a second buyer who sends the same key and body gets a session of their own, not the first buyer’s', async () => {
      const key = newKey();

      const mine = await init(key, '198.51.100.7');
      const theirs = await init(key, '203.0.113.9');

      expect(mine.status).toBe(201);
      expect(theirs.status).toBe(201);
      expect(theirs.headers.get('idempotent-replayed')).toBeNull();
      expect(theirs.body.sessionId).not.toBe(mine.body.sessionId);
      expect(theirs.body.checkoutUrl).not.toBe(mine.body.checkoutUrl);
    });

    test('a checkout init that died after its session got its URL is replayed: the same session and URL', async () => {
      const key = newKey();
      dieAfterWrite(w);
      const first = await init(key, '198.51.100.9');
      w.api.clock.advance(HOUR);

      const retry = await init(key, '198.51.100.9');

      expect(first.status).toBe(201);
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.body).toEqual(first.body);
    });

    test('the same buyer retrying is answered their own session again', async () => {
      const key = newKey();

      const first = await init(key, '198.51.100.8');
      const again = await init(key, '198.51.100.8');

      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
    });
  });
}

publishableRules('sqlite', async () => ({ deps: sqliteDeps().deps }));
publishableRules('postgres', async () => {
  const store = await openPostgresTestStore();
  return { deps: depsFor(store.store), close: () => store.dispose() };
});
