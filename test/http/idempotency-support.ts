import { afterAll, beforeAll } from 'bun:test';
import { openPostgresTestStore } from '../contracts/stores.ts';
import { depsFor } from '../support/deps.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';

export type World = { api: TestApi; s: Awaited<ReturnType<typeof seller>> };

/** Opens an API over a store; `close` gives the store back. */
export type OpenApi = () => Promise<{ api: TestApi; close?: () => Promise<void> }>;

/** The API over SQLite (in memory) and over a PostgreSQL test schema: each rule suite runs on both. */
export const BOTH_STORES: [string, OpenApi][] = [
  ['sqlite', async () => ({ api: testApi() })],
  [
    'postgres',
    async () => {
      const pg = await openPostgresTestStore();
      return { api: testApi({ deps: depsFor(pg.store) }), close: () => pg.dispose() };
    },
  ],
];

/** One seller on a store opened before the enclosing describe's tests and closed after them. */
export function sellerWorld(open: OpenApi): World {
  const w = {} as World;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await open();
    close = opened.close;
    Object.assign(w, { api: opened.api, s: await seller(opened.api) });
  });
  afterAll(async () => close?.());
  return w;
}

/** The next request's answer is never kept nor its key given back, as if its process died after its write. */
export function dieAfterWrite(w: Pick<World, 'api'>) {
  const keys = w.api.deps.idempotencyKeys;
  const { complete, release } = keys;
  keys.complete = async () => void (keys.complete = complete);
  keys.release = async () => void (keys.release = release);
}

